// The streaming SHA-256 of esign verify equals a one-shot hash at every chunk boundary.
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256File } from '../../src/app/hashFile.js';
import { tempDir } from '../helpers.js';

const dir = tempDir('esign-hash-');
afterAll(() => dir.cleanup());
const CHUNK = 4 * 1024 * 1024;

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
});
