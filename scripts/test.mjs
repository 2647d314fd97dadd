// `npm test` after the build: the suite (vitest, with this script's arguments), and beside it the
// static checks (typecheck, lint, unused). The checks take one core for about a minute; the suite
// waits on processes, servers and browsers and leaves part of a core idle for most of its run. On a
// fresh clone of this 2-core machine, npm test took 662 s with the checks before the suite and 622 s
// with them beside it. A check that fails stops the suite: its output is printed and the exit code
// is 1. Run from npm, which puts node_modules/.bin on PATH.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { makeSuiteDir } from './suiteDir.mjs';

const started = Date.now();
const seconds = () => Math.round((Date.now() - started) / 1000);

// The run's temporary directory (test/globalSetup.ts makes one when vitest runs alone): made here, it
// is removed here too when the suite was stopped (a failed check, Ctrl-C), which vitest's teardown is not.
const run = makeSuiteDir();
// The suite in a process group of its own, so that a failed check stops its workers too.
const suite = spawn('vitest', ['run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  detached: true,
  env: { ...process.env, TMPDIR: run },
});
const removeRun = () => {
  try {
    rmSync(run, { recursive: true, force: true, maxRetries: 3 });
  } catch (e) {
    process.stderr.write(`npm test: could not remove ${run}: ${e.message}\n`);
  }
};
const suiteEnded = new Promise((resolve) =>
  suite.on('exit', (code, signal) => {
    removeRun();
    resolve(code ?? (signal ? 1 : 0));
  }),
);
// Not started at all (run outside npm, vitest is not on PATH): said, with nothing left in TMPDIR and
// no checks started.
const notStarted = await new Promise((resolve) => {
  suite.once('spawn', () => resolve(undefined));
  suite.once('error', resolve);
});
if (notStarted) {
  removeRun();
  process.stderr.write(`npm test: could not start vitest (${notStarted.message}): run it as npm test.\n`);
  process.exit(1);
}
const stopSuite = (signal) => {
  try {
    process.kill(-suite.pid, signal);
  } catch {
    // already gone
  }
};
// Its own group does not get a terminal's Ctrl-C: pass it on.
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    interrupted = true;
    stopSuite(signal);
  });

const checks = spawn('npm', ['run', '--silent', 'checks'], { stdio: ['ignore', 'pipe', 'pipe'] });
const said = [];
checks.stdout.on('data', (d) => said.push(d));
checks.stderr.on('data', (d) => said.push(d));
const checksCode = await new Promise((resolve) => checks.on('close', (code) => resolve(code ?? 1)));

if (interrupted) process.exit((await suiteEnded) || 130);
if (checksCode !== 0) {
  stopSuite('SIGTERM');
  await suiteEnded;
  process.stderr.write(Buffer.concat(said));
  process.stderr.write(`\nnpm test: the static checks failed after ${seconds()} s (above); the suite was stopped.\n`);
  process.exit(1);
}
const checksTook = seconds();
const suiteCode = await suiteEnded;
process.stdout.write(`\nnpm test: typecheck, lint and unused passed in ${checksTook} s, beside the suite.\n`);
process.exit(suiteCode);
