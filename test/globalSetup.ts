// Spawned tests run bin/esign.js on dist/, and the page tests' stylesheet and browser scripts are
// bundles (dist/client): build dist/ once per run, before any test starts, when the source is
// newer than it. No test builds on its own (a rebuild empties dist/ under the other workers).
// Every temporary file of the run goes in the suite's own directory (scripts/suiteDir.mjs).
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inSuiteDir, makeSuiteDir } from '../scripts/suiteDir.mjs';

const root = join(import.meta.dirname, '..');

function newest(path: string): number {
  const s = statSync(path, { throwIfNoEntry: false });
  if (!s) return 0;
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

export default function setup(): () => void {
  // Each project inherits this setup: the first to run makes the directory. The workers start after
  // it, with this environment.
  let teardown = (): void => undefined;
  if (!inSuiteDir()) {
    const run = makeSuiteDir();
    process.env.TMPDIR = run;
    teardown = () => rmSync(run, { recursive: true, force: true });
  }
  const built = Math.min(
    ...['dist/cli.js', 'dist/client/signing.js', 'dist/client/page.css'].map(
      (f) => statSync(join(root, f), { throwIfNoEntry: false })?.mtimeMs ?? 0,
    ),
  );
  const source = Math.max(...['src', 'scripts/build.mjs', 'package-lock.json'].map((p) => newest(join(root, p))));
  if (built <= source) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  return teardown;
}
