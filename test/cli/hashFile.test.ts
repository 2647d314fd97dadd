// The streaming SHA-256 of esign verify equals a one-shot hash at every chunk boundary, on this
// thread and on a worker (large files, issue 37), for several files at once and for a hash started
// ahead of its caller.
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prefetchHashes, sha256File, sha256Files, WORKER_MIN_BYTES } from '../../src/app/hashFile.js';
import { tempDir } from '../helpers.js';

const dir = tempDir('esign-hash-');
afterAll(() => dir.cleanup());
const CHUNK = 4 * 1024 * 1024;
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'esign.js');

describe('sha256File', () => {
  it.each([0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 5])(
    'hashes %i bytes like a one-shot hash, reporting progress',
    async (size) => {
      const data = randomBytes(size);
      const path = join(dir.dir, `f-${size}`);
      writeFileSync(path, data);
      const seen: number[] = [];
      expect(await sha256File(path, (done, total) => seen.push(done / total))).toBe(
        createHash('sha256').update(data).digest('hex'),
      );
      if (size) expect(seen.at(-1)).toBe(1);
    },
  );

  it('fails on a missing file', async () => {
    await expect(sha256File(join(dir.dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  /** A file of `size` random bytes, and its hash made in one go. */
  const made = (name: string, size: number) => {
    const data = randomBytes(size);
    const path = join(dir.dir, name);
    writeFileSync(path, data);
    return { path, data, hex: createHash('sha256').update(data).digest('hex') };
  };

  it('hashes a large file on a worker like a one-shot hash, reporting progress to the end', async () => {
    const f = made('large', WORKER_MIN_BYTES + 5);
    const seen: number[] = [];
    expect(await sha256File(f.path, (done, total) => seen.push(done / total))).toBe(f.hex);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe(1);
  });

  it('hashes several files at once, each answer in its place', async () => {
    const files = [made('a', WORKER_MIN_BYTES), made('b', 10), made('c', WORKER_MIN_BYTES + CHUNK + 1)];
    expect(await sha256Files(files.map((f) => f.path))).toEqual(files.map((f) => f.hex));
  });

  it('answers from a hash started ahead, and hashes again a file changed since', async () => {
    const kept = made('kept', WORKER_MIN_BYTES);
    const changed = made('changed', WORKER_MIN_BYTES);
    prefetchHashes([kept.path, changed.path, join(dir.dir, 'missing')]);
    appendFileSync(changed.path, 'more');
    expect(await sha256File(kept.path)).toBe(kept.hex);
    expect(await sha256File(changed.path)).toBe(
      createHash('sha256')
        .update(Buffer.concat([changed.data, Buffer.from('more')]))
        .digest('hex'),
    );
  });

  it('esign verify hashes a large file started by the launcher and the files of a directory together; a usage error does not wait', () => {
    const f = made('verified', WORKER_MIN_BYTES + 1);
    const esign = (...args: string[]) =>
      spawnSync(process.execPath, [BIN, 'verify', ...args], {
        env: { ...process.env, ESIGN_DATA_DIR: join(dir.dir, 'data') },
        encoding: 'utf8',
      });
    const r = esign(f.path, '--json');
    expect(r.status, r.stderr).toBe(9);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ file: f.path, status: 'no_match', sha256: f.hex });
    const folder = join(dir.dir, 'folder');
    mkdirSync(folder);
    const inside = [made('folder/x', WORKER_MIN_BYTES + 2), made('folder/y', WORKER_MIN_BYTES + 3)];
    const all = esign(folder, '--json');
    expect(all.status, all.stderr).toBe(9);
    expect(JSON.parse(all.stdout).map((v: { file: string; sha256: string }) => [v.file, v.sha256])).toEqual(
      inside.map((i) => [i.path, i.hex]),
    );
    const bad = esign(f.path, '--no-such-flag');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--no-such-flag');
  });
});
