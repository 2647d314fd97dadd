// Start-up cost of a command that opens the engine (issue 37): `esign bundle list` on the local engine
// loads none of the Node modules only some commands use (each costs 1-2 ms of every start), and takes
// better-sqlite3 with require (imported as an ES module, Node first scans its source for export names).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'esign.js');
const tmp = useTempDir('esign-startup-builtins-');

/** Node's own modules that a run of the built CLI loaded (process.moduleLoadList at its exit). */
function loadedBy(args: string[]): string[] {
  const report = `process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(process.moduleLoadList) + '\\n'))`;
  const r = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(report)}`, BIN, ...args],
    { env: { ...process.env, ESIGN_DATA_DIR: tmp.dir }, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] },
  );
  expect(r.status, r.stderr).toBe(0);
  const line = /^LOADED (.*)$/m.exec(r.stderr)?.[1];
  if (!line) throw new Error(`no module list in: ${r.stderr}`);
  return (JSON.parse(line) as string[]).map((m) => m.replace(/^NativeModule /, ''));
}

describe('start-up of a command on the local engine', () => {
  it('esign bundle list loads no HTTP, DNS or worker thread module, and no CommonJS export scanner', () => {
    const loaded = loadedBy(['bundle', 'list', '--json']);
    expect(loaded).toContain('crypto'); // the list is real: the engine was opened
    for (const unused of ['http', 'dns', 'worker_threads', 'internal/deps/cjs-module-lexer/lexer'])
      expect(loaded).not.toContain(unused);
  });
});
