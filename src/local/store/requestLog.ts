// esign serve's request log in the data directory: one JSON line per request in `requests.log`,
// appended in batches (a request never waits for the disk), kept to about 2 x MAX_BYTES by moving a
// full file to `requests.log.1`. Any process on the same data directory reads it back: the last
// requests, then new ones as they are written (read by offset every FOLLOW_MS).
import { appendFile, open, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { entryOf, matchesRequest, MAX_BACKLOG, DEFAULT_BACKLOG } from '../../service/requestLog.js';
import type { FollowRequests, RequestLogEntry } from '../../service/types.js';

const FILE = 'requests.log';
const MAX_BYTES = 8 * 1024 * 1024;
const FLUSH_MS = 100;
const FOLLOW_MS = 200;
/** The most a backlog read takes from the end of a file (a line is about 200 bytes). */
const TAIL_BYTES = 1024 * 1024;

export class RequestLog {
  private queued: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private size: number | undefined;
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, FILE);
  }

  record(e: RequestLogEntry): void {
    this.queued.push(`${JSON.stringify(e)}\n`);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Writes what is queued (in order, one write at a time). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.queued.join('');
    this.queued = [];
    if (!text) return this.writing;
    this.writing = this.writing.then(async () => {
      this.size ??= await stat(this.file).then(
        (s) => s.size,
        () => 0,
      );
      if (this.size > MAX_BYTES) {
        await rename(this.file, `${this.file}.1`).catch(() => undefined);
        this.size = 0;
      }
      await appendFile(this.file, text, { mode: 0o600 }).catch(() => undefined);
      this.size += Buffer.byteLength(text);
    });
    return this.writing;
  }

  /** The end of a file from `from` on, as whole lines, and where the next read starts. */
  private async readFrom(file: string, from: number): Promise<{ lines: string[]; next: number; ino: number }> {
    const h = await open(file, 'r').catch(() => undefined);
    if (!h) return { lines: [], next: 0, ino: -1 };
    try {
      const { size, ino } = await h.stat();
      const start = size < from ? 0 : from;
      const buf = Buffer.alloc(size - start);
      await h.read(buf, 0, buf.length, start);
      const text = buf.toString('utf8');
      const end = text.lastIndexOf('\n') + 1;
      return {
        lines: text.slice(0, end).split('\n').filter(Boolean),
        next: start + Buffer.byteLength(text.slice(0, end)),
        ino,
      };
    } finally {
      await h.close();
    }
  }

  /** The last `n` requests that match, oldest first. */
  private async backlog(
    o: FollowRequests,
    n: number,
  ): Promise<{ entries: RequestLogEntry[]; next: number; ino: number }> {
    const current = await stat(this.file).catch(() => undefined);
    const fromEnd = (size: number) => Math.max(0, size - TAIL_BYTES);
    const older = await this.readFrom(
      `${this.file}.1`,
      fromEnd((await stat(`${this.file}.1`).catch(() => undefined))?.size ?? 0),
    );
    const now = await this.readFrom(this.file, fromEnd(current?.size ?? 0));
    const match = (l: string) => {
      const e = entryOf(l);
      return e && (!o.filter || matchesRequest(o.filter, e)) ? [e] : [];
    };
    // A read that starts inside a file may begin mid-line: that first piece is not an entry and drops out.
    const entries = [...older.lines, ...now.lines].flatMap(match);
    return { entries: n ? entries.slice(-n) : [], next: now.next, ino: now.ino };
  }

  /** Calls `onEntry` with the backlog, then (unless `follow` is false) with each new request until `signal` aborts. */
  async follow(o: FollowRequests, onEntry: (e: RequestLogEntry) => void): Promise<void> {
    const n = Math.min(o.backlog ?? DEFAULT_BACKLOG, MAX_BACKLOG);
    await this.flush();
    let { entries, next, ino } = await this.backlog(o, n);
    entries.forEach(onEntry);
    if (o.follow === false) return;
    while (!o.signal?.aborted) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, FOLLOW_MS);
        o.signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(t);
            resolve();
          },
          { once: true },
        );
      });
      if (o.signal?.aborted) break;
      await this.flush();
      const s = await stat(this.file).catch(() => undefined);
      // Moved aside (or not made yet): the new file is read from its start.
      if (!s || s.ino !== ino) next = 0;
      const got = await this.readFrom(this.file, next);
      next = got.next;
      ino = got.ino;
      for (const l of got.lines) {
        const e = entryOf(l);
        if (e && (!o.filter || matchesRequest(o.filter, e))) onEntry(e);
      }
    }
  }
}
