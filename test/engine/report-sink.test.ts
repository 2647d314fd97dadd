// The engine tells people things (a directory tightened, a background failure, a slow upgrade)
// through the sink its host chooses, never by writing to the process's streams itself.
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { expect, test, vi } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { tempDir } from '../helpers.js';

test("a line for people goes to the host's sink, not to stderr", async () => {
  const data = tempDir('esign-report-');
  const dir = join(data.dir, 'esign');
  mkdirSync(dir, { mode: 0o755 });
  const lines: string[] = [];
  const stderr = vi.spyOn(process.stderr, 'write');
  try {
    const engine = new LocalEngine({ dataDir: dir, report: (l) => lines.push(l) });
    await engine.close();
    expect(lines).toEqual([
      expect.stringMatching(/was open to other users \(mode 755\); it is now private \(700\)\.$/),
    ]);
    expect(stderr).not.toHaveBeenCalled();
  } finally {
    stderr.mockRestore();
    data.cleanup();
  }
});

test("no module of the engine writes to the process's streams", () => {
  const root = join(import.meta.dirname, '..', '..', 'src', 'local');
  const writers = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter(
      (f) =>
        f.endsWith('.ts') &&
        // A call writes; pdfText.ts only silences what pdfjs prints as it loads (console.warn = ...).
        /process\.std(err|out)\.write|console\.(log|error|warn)\(/.test(readFileSync(join(root, f), 'utf8')),
    )
    .map((f) => f.split(sep).join('/'));
  expect(writers).toEqual([]);
});

test('with no sink from its host, a line becomes a process warning: none is dropped', async () => {
  const data = tempDir('esign-report-');
  const dir = join(data.dir, 'esign');
  mkdirSync(dir, { mode: 0o755 });
  const warnings: (Error & { code?: string })[] = [];
  const listen = (w: Error) => warnings.push(w);
  process.on('warning', listen);
  try {
    await new LocalEngine({ dataDir: dir }).close();
    // process.emitWarning emits on the next tick.
    await new Promise((r) => setImmediate(r));
    expect(warnings.filter((w) => w.code === 'ESIGN_REPORT').map((w) => w.message)).toEqual([
      expect.stringMatching(/was open to other users \(mode 755\); it is now private \(700\)\.$/),
    ]);
  } finally {
    process.off('warning', listen);
    data.cleanup();
  }
});
