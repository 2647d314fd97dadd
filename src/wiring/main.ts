// The program as shipped (dist/cli.js, started by bin/esign.js): the CLI, with the backends and the
// verbs that start another door wired in. The one module that knows every door and adapter.
import { EXIT } from '../cli/exitCodes.js';
import { captureIO, processIO } from '../cli/io.js';
import { buildProgram as cliProgram, runCli } from '../cli/main.js';
import type { CompletionFile } from '../cli/commands/completion/fast.js';
import { treeOf } from '../cli/commands/completion/tree.js';
import { OPERATION_TABLE } from '../service/operationTable.js';
import { wiring } from './wiring.js';

/** The program as shipped, every verb registered (test/cli/shipped-matrix.test.ts walks it in dist/). */
export const buildProgram = (...a: Parameters<typeof cliProgram>) =>
  cliProgram(a[0], a[1], a[2], a[3], a[4], wiring.doorVerbs);

/** What a Tab is answered from without the program (dist/completion.json, written by the build). */
export function completionFile(): CompletionFile {
  const program = buildProgram('0', captureIO(), () => undefined as never, { code: 0 });
  const operations = OPERATION_TABLE.map((op) => ({
    method: op.method,
    path: op.path,
    ...(op.aliases ? { aliases: op.aliases } : {}),
    summary: op.summary,
    name: op.name,
  }));
  return { tree: treeOf(program), operations };
}

export async function main(argv: string[], version: string): Promise<void> {
  // Ctrl-C ends the command with 130, unless the command stops gracefully itself (serve, webhook listen).
  process.on('SIGINT', function interrupted() {
    if (process.listenerCount('SIGINT') > 1) return;
    process.exit(EXIT.INTERRUPTED);
  });
  process.exitCode = await runCli(argv.slice(2), { io: processIO(), version, wiring });
}

/**
 * The program as shipped, run on a captured IO with this process's environment: its exit code and
 * what it printed. Many command lines in one process, as test/cli/shipped-matrix.test.ts runs the
 * bundle's commands (a process each cost it a Node start and the bundle's load, ~240 times).
 */
export async function runCaptured(args: string[], stdin = ''): Promise<{ exitCode: number; output: string }> {
  const io = captureIO({ stdin, env: process.env });
  const exitCode = await runCli(args, { io, version: '0', wiring });
  return { exitCode, output: `${io.stdout()}${io.stderr()}` };
}
