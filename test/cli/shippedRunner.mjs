// Runs command lines through the built program (dist/cli.js's runCaptured) one after another in this
// one process, with its environment: the runs ([{ command, args, stdin }]) from the file named
// first, the outcomes written as JSON to the file named second. A run that throws is a crash.
import { readFileSync, writeFileSync } from 'node:fs';

const { runCaptured } = await import(new URL('../../dist/cli.js', import.meta.url).href);
const outcomes = [];
for (const run of JSON.parse(readFileSync(process.argv[2], 'utf8'))) {
  try {
    outcomes.push({ command: run.command, ...(await runCaptured(run.args, run.stdin ?? '')) });
  } catch (e) {
    outcomes.push({ command: run.command, exitCode: undefined, output: String(e?.stack ?? e) });
  }
}
writeFileSync(process.argv[3], JSON.stringify(outcomes));
// What a command left running (a sandbox process, a timer) is not this runner's to wait for.
process.exit(0);
