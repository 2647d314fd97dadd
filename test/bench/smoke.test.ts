// Benchmarks never rot: every file of bench/ runs end to end at a tiny size (BENCH_SMOKE=1), from
// the build (dist/) as `npm run bench` runs them, so a benchmark that breaks fails CI (`npm run
// test:bench`, after `npm test`). What they print then means nothing; only whether they run is checked.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const BENCH = join(import.meta.dirname, '..', '..', 'bench');
const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'esign-bench-smoke-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** One benchmark file at the smoke size; its output (a failure throws with its stderr). */
async function bench(file: string, args: string[] = [], env: Record<string, string> = {}): Promise<string> {
  const r = await run(process.execPath, [join(BENCH, file), ...args], {
    env: { ...process.env, BENCH_SMOKE: '1', TMPDIR: scratch, ...env },
    // security.mjs's smoke (every hostile case, the kill-and-resume race, intake's two) took 149 s of
    // its then 150 at the full suite's load: a bound on a hung benchmark, within the test's own 300 s.
    timeout: 270_000,
    maxBuffer: 16 * 2 ** 20,
  });
  return r.stdout;
}

/** The files a file imports from bench/ (`./x.mjs`), or preloads into a process it starts (`new URL('./x.mjs', ...)`). */
const importsOf = (file: string) =>
  [
    ...readFileSync(join(BENCH, file), 'utf8').matchAll(
      /from '\.\/([\w-]+\.mjs)'|import\('\.\/([\w-]+\.mjs)'\)|new URL\('\.\/([\w-]+\.mjs)'/g,
    ),
  ].map((m) => (m[1] ?? m[2] ?? m[3])!);

/**
 * Run below, each on its own; bench/run.mjs runs the others (what `npm run bench` runs), and a file
 * another imports runs inside it (security.mjs runs batch-resume-race.mjs's trials).
 */
const ALONE = ['scale.mjs', 'mmap.mjs', 'console.mjs', 'batch.mjs', 'security.mjs'];

describe('every benchmark runs end to end at a tiny size', () => {
  it('each file of bench/ is run here, by bench/run.mjs, or imported by one that is', () => {
    const files = readdirSync(BENCH).filter((f) => f.endsWith('.mjs'));
    const covered = new Set(['run.mjs', ...ALONE, ...importsOf('run.mjs')]);
    // A Set visits what is added while it is walked: every file reached, however deep.
    for (const f of covered) for (const i of importsOf(f)) covered.add(i);
    expect(files.filter((f) => !covered.has(f))).toEqual([]);
  });

  it('npm run bench: bench/run.mjs and every benchmark it runs', { timeout: 300_000 }, async () => {
    const out = await bench('run.mjs');
    for (const line of [
      /^esign --version /m,
      /^engine createBundle, one at a time: /m,
      /^local batch send, \d+ rows, start-up included: /m,
      /^esign serve GET \/bundles\/\{slug\}\/ /m,
      /^esign verify /m,
      /^full lifecycles /m,
      /^webhook dispatcher: /m,
      /^bundle wait notices completion /m,
      /^remote bundle wait at the hosted quota /m,
    ])
      expect(out).toMatch(line);
  });

  it('lists at scale, the memory map and the console on a seeded store', { timeout: 300_000 }, async () => {
    const scale = await bench('scale.mjs', [], { BENCH_SCALE_KEEP: '1' });
    expect(scale).toMatch(/^creates\/s /m);
    const kept = /^kept (\S+)/m.exec(scale)![1]!;
    // The console reads the kept store; the memory map seeds its own (the path `node bench/mmap.mjs` takes alone).
    const [consolePages, mmap] = await Promise.all([
      bench('console.mjs', [], { BENCH_CONSOLE_DIR: kept }),
      bench('mmap.mjs'),
    ]);
    expect(consolePages).toMatch(/^worst server p95 /m);
    expect(mmap).toMatch(/^mmap_size 0: /m);
  });

  it('bulk send, and the hostile strangers with the kill-and-resume race', { timeout: 300_000 }, async () => {
    const [batch, security] = await Promise.all([bench('batch.mjs'), bench('security.mjs')]);
    expect(batch).toMatch(/^check: /m);
    // No hostile input, at any size, is answered 500 (a cut-off preparation form was, at smoke size).
    expect(security).not.toMatch(/(?:: |\| )500\b/);
    expect(security).toMatch(/^Kill-and-double-resume .*: 0 rows sent twice, 0 never sent/m);
    expect(security).toMatch(/^page-tree DAG .* \| 400: .*page tree reaches a node twice/m);
    expect(security).toMatch(/^ {2}sound PDF of .*, multipart: 201, then se; /m);
    expect(security).toMatch(
      /^ {2}PDF with [\d,]+ form fields, signed through to its files: completed, files ready; /m,
    );
  });
});
