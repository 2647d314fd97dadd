// SHA-256 of a file while reading it, as fast as `openssl dgst -sha256`. On the main thread two
// buffers, so the next chunk is read (on libuv's thread pool) while OpenSSL hashes the current one.
// A large file is hashed on a worker thread: several files hash on several cores at once, and the
// main thread stays free for the rest of the command (esign verify's launcher starts them before
// the CLI has loaded).
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

const CHUNK = 4 * 1024 * 1024;
/** From this size a file is hashed on a worker thread (starting one costs some 10-20 ms of CPU). */
export const WORKER_MIN_BYTES = 32 * 1024 * 1024;

type Progress = (done: number, total: number) => void;

/** Hashing on this thread: reads on the thread pool, so that the event loop is never held. */
async function hashLoop(path: string, chunk: number, progress?: Progress): Promise<string> {
  const file = await open(path, 'r');
  try {
    const total = (await file.stat()).size;
    const hash = createHash('sha256');
    const buffers = [Buffer.allocUnsafe(chunk), Buffer.allocUnsafe(chunk)];
    let turn = 0;
    let done = 0;
    let next = file.read(buffers[0]!, 0, chunk, null);
    for (;;) {
      const { bytesRead, buffer } = await next;
      if (!bytesRead) break;
      turn ^= 1;
      next = file.read(buffers[turn]!, 0, chunk, null);
      hash.update(bytesRead === chunk ? buffer : buffer.subarray(0, bytesRead));
      done += bytesRead;
      progress?.(done, total);
    }
    return hash.digest('hex');
  } finally {
    await file.close();
  }
}

/**
 * A worker does nothing else, so it reads synchronously, 64 KB at a time: the bytes it copies stay
 * in the CPU's cache for the hash, as openssl's do (4 MB reads took twice openssl's system time).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { openSync, fstatSync, readSync, closeSync } = require('node:fs');
try {
  const fd = openSync(workerData.path, 'r');
  try {
    const total = fstatSync(fd).size;
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(64 * 1024);
    let done = 0;
    let shown = 0;
    for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) {
      hash.update(n === buffer.length ? buffer : buffer.subarray(0, n));
      done += n;
      if (done - shown >= ${CHUNK} || done === total) parentPort.postMessage({ done: (shown = done), total });
    }
    parentPort.postMessage({ hex: hash.digest('hex') });
  } finally {
    closeSync(fd);
  }
} catch (e) {
  parentPort.postMessage({ error: { message: String(e && e.message), code: e && e.code } });
}
`;

/** A hash under way on a worker, and who follows its progress. */
interface Running {
  hex: Promise<string>;
  listeners: Set<Progress>;
  /** The latest progress, for a listener that comes late. */
  last?: [number, number];
  /** Someone waits for it: the worker keeps the process alive (a hash started ahead does not). */
  want(): void;
}

/** Workers running, at most one per core; the others wait their turn. */
let active = 0;
const waiting: (() => void)[] = [];
const slot = async () => {
  if (active >= availableParallelism()) await new Promise<void>((r) => waiting.push(r));
  active++;
};
const release = () => {
  active--;
  waiting.shift()?.();
};

type WorkerMessage = { done?: number; total?: number; hex?: string; error?: { message: string; code?: string } };

function hashOnWorker(path: string, wanted: boolean): Running {
  let worker: import('node:worker_threads').Worker | undefined;
  const running: Running = {
    listeners: new Set(),
    want: () => {
      wanted = true;
      worker?.ref();
    },
    hex: slot().then(() =>
      new Promise<string>((done, fail) => {
        // Loaded here: most commands never hash a large file.
        const { Worker } = process.getBuiltinModule('node:worker_threads');
        worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, chunk: CHUNK } });
        if (!wanted) worker.unref();
        worker.on('message', (m: WorkerMessage) => {
          if (m.hex !== undefined) done(m.hex);
          else if (m.error) fail(Object.assign(new Error(m.error.message), m.error.code ? { code: m.error.code } : {}));
          else {
            running.last = [m.done!, m.total!];
            for (const l of running.listeners) l(m.done!, m.total!);
          }
        });
        worker.on('error', fail);
        worker.on('exit', () => fail(new Error(`Hashing ${path} stopped.`)));
      }).finally(release),
    ),
  };
  return running;
}

/** Hashes started ahead of their caller (`prefetchHashes`), by absolute path, with what the file was then. */
const started = new Map<string, { identity: string; running: Running }>();
const identityOf = (s: { dev: number; ino: number; size: number; mtimeMs: number }) =>
  `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;

/** A large regular file's identity, or undefined (small, missing, not a file: hashed by the caller's own call). */
function largeFile(path: string): string | undefined {
  try {
    const s = statSync(path);
    return s.isFile() && s.size >= WORKER_MIN_BYTES ? identityOf(s) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts hashing the large files among `paths` now, for a later `sha256File` of the same unchanged
 * file. Anything else is skipped: the later call hashes it, and reports its errors.
 */
export function prefetchHashes(paths: readonly string[]): void {
  for (const p of paths) {
    const abs = resolve(p);
    const identity = largeFile(abs);
    if (identity && !started.has(abs)) {
      const running = hashOnWorker(abs, false);
      running.hex.catch(() => {}); // its caller sees the error, if it asks
      started.set(abs, { identity, running });
    }
  }
}

/** The SHA-256 of a file as lowercase hex; `progress` hears the bytes hashed so far. */
export async function sha256File(path: string, progress?: Progress): Promise<string> {
  const abs = resolve(path);
  const identity = largeFile(abs);
  if (!identity) return hashLoop(path, CHUNK, progress);
  const ahead = started.get(abs);
  started.delete(abs);
  const running = ahead && ahead.identity === identity ? ahead.running : hashOnWorker(abs, true);
  running.want();
  if (progress) {
    running.listeners.add(progress);
    if (running.last) progress(...running.last);
  }
  return running.hex;
}

/** The SHA-256 of each file, large ones on as many cores as there are, in the order given. */
export function sha256Files(paths: readonly string[], progress?: (path: string, done: number, total: number) => void) {
  prefetchHashes(paths);
  return Promise.all(paths.map((p) => sha256File(p, progress && ((done, total) => progress(p, done, total)))));
}
