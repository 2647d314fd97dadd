// The files a batch's rows attach, read once per run: rows of a batch mostly name the same few files,
// and reading each row's copy from disk kept every create waiting on the file system.
import { readFile, stat } from 'node:fs/promises';

/** Files read whole are kept up to this many bytes in all; past it each is read again when named. */
const MAX_KEPT_BYTES = 64 * 2 ** 20;

export class FileCache {
  private readonly kept = new Map<string, Promise<Buffer>>();
  private readonly isFileKept = new Map<string, Promise<boolean>>();
  private keptBytes = 0;

  constructor(private readonly maxBytes = MAX_KEPT_BYTES) {}

  /** The file's bytes (rejects as readFile does). Callers share the buffer and must not change it. */
  read(path: string): Promise<Buffer> {
    const hit = this.kept.get(path);
    if (hit) return hit;
    const read = readFile(path);
    this.kept.set(path, read);
    read.then(
      (b) => {
        this.keptBytes += b.length;
        if (this.keptBytes > this.maxBytes) {
          this.kept.delete(path);
          this.keptBytes -= b.length;
        }
      },
      () => this.kept.delete(path),
    );
    return read;
  }

  /** Whether the path is a file (rejects as stat does), asked once per run. */
  isFile(path: string): Promise<boolean> {
    let hit = this.isFileKept.get(path);
    if (!hit) {
      hit = stat(path).then((s) => s.isFile());
      this.isFileKept.set(path, hit);
      hit.catch(() => this.isFileKept.delete(path));
    }
    return hit;
  }
}
