// SHA-256 of a file while reading it, as fast as `openssl dgst -sha256`: two buffers, so the next
// chunk is read (on libuv's thread pool) while OpenSSL hashes the current one on the main thread.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

const CHUNK = 4 * 1024 * 1024;

export async function sha256File(path: string, progress?: (done: number, total: number) => void): Promise<string> {
  const file = await open(path, 'r');
  try {
    const total = (await file.stat()).size;
    const hash = createHash('sha256');
    const buffers = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)];
    let turn = 0;
    let done = 0;
    let next = file.read(buffers[0]!, 0, CHUNK, null);
    for (;;) {
      const { bytesRead, buffer } = await next;
      if (!bytesRead) break;
      turn ^= 1;
      next = file.read(buffers[turn]!, 0, CHUNK, null);
      hash.update(bytesRead === CHUNK ? buffer : buffer.subarray(0, bytesRead));
      done += bytesRead;
      progress?.(done, total);
    }
    return hash.digest('hex');
  } finally {
    await file.close();
  }
}
