// SHA-256 of a file while reading it: one reused buffer and OpenSSL's hash, so a large file costs
// little more than `openssl dgst -sha256`.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

const CHUNK = 4 * 1024 * 1024;

export async function sha256File(path: string, progress?: (done: number, total: number) => void): Promise<string> {
  const file = await open(path, 'r');
  try {
    const total = (await file.stat()).size;
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(CHUNK);
    let done = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, CHUNK, null);
      if (!bytesRead) break;
      hash.update(bytesRead === CHUNK ? buffer : buffer.subarray(0, bytesRead));
      done += bytesRead;
      progress?.(done, total);
    }
    return hash.digest('hex');
  } finally {
    await file.close();
  }
}
