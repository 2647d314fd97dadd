// The suite's tiers, each a vitest project (vitest.config.ts): `npm test` runs all but bench (CI runs
// it after), and each runs alone (`npm run test:unit`, `test:processes`, `test:browser`, `test:bench`;
// CONTRIBUTING.md).
// A file's tier follows from what it drives, read from its text, so a new test file needs no entry:
// - browser: Chromium or LibreOffice, by name below (the machine must have them; CI installs them);
// - bench: the benchmarks' smoke run;
// - processes: a spawned Node (bin/esign.js, esign serve, esign mcp over stdio), tmux, or another program;
// - unit: everything else, in the worker's own process (its engine's document sandbox aside).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export type Tier = 'unit' | 'processes' | 'browser' | 'bench';

const BROWSER = [
  /^test\/browser\//,
  /^test\/intake\/htmlChromium\.test\.ts$/,
  /^test\/intake\/office\.test\.ts$/,
  /^test\/engine\/intake\.test\.ts$/,
  /^test\/security\/hostile-intake\.test\.ts$/,
];
const BENCH = /^test\/bench\//;
/** What a test file names when it starts another program (itself, or through the helper that does). */
const STARTS_PROGRAMS =
  /child_process|from 'execa'|\bBIN\b|serveProcess|tmux|stdioClient|webhooks\/listen|consoleDoors/;

const root = join(import.meta.dirname, '..');

/** Every test file of the suite with its tier (paths from the repository's root). */
function tiers(): Map<string, Tier> {
  const files = readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) =>
      relative(root, join(root, 'test', f))
        .split('\\')
        .join('/'),
    )
    .sort();
  const out = new Map<string, Tier>();
  for (const f of files) {
    const text = readFileSync(join(root, f), 'utf8');
    out.set(
      f,
      BROWSER.some((p) => p.test(f))
        ? 'browser'
        : BENCH.test(f)
          ? 'bench'
          : STARTS_PROGRAMS.test(text)
            ? 'processes'
            : 'unit',
    );
  }
  return out;
}

/** The files of one tier. */
export const filesOf = (tier: Tier): string[] => [...tiers()].filter(([, t]) => t === tier).map(([f]) => f);
