// Which `esign serve` serves this data directory: it writes serve.json (its public URL, pid, a
// random token and whether it serves the support console; mode 0600) on start and removes it on
// stop, so other processes can point links at it. The file is trusted only when the server it
// names proves it holds the token: a live pid is not enough (pids are recycled, and a port can be
// taken by another program once the server dies), and links carry live tokens to the URL the file
// names.
//
// The proof is an HMAC of a fresh challenge (GET /_esign/serve-proof?challenge=...), so the answer
// never reveals the token. Callers ask synchronously (link building is synchronous), so the request
// runs in a worker thread while this one waits. Nothing listening refuses at once; a port that
// accepts gets ANSWER_TIMEOUT_MS to answer, so a server on a busy machine is still found (its links
// name it), and a stale file whose port accepts but never answers costs that once: its server is not
// asked again for SILENT_FOR_MS.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVE_PROOF_PATH } from '../../service/hosting.js';

const FILE = 'serve.json';
/** From the moment it is asked until its connection is accepted (a URL that drops packets costs this). */
const CONNECT_TIMEOUT_MS = 1_000;
/**
 * From the accepted connection: a server that answers later than this is taken as not running. Beside
 * 16 busy processes on 2 cores a serve's answer took up to 190 ms to arrive; 3 s leaves room for a
 * busier machine, and is what a stale file whose port accepts but never answers costs a command.
 */
const ANSWER_TIMEOUT_MS = 3_000;
/** The worker's own start (a busy machine is slow to start a thread); past it, nothing was asked. */
const WORKER_START_MS = 2_000;
/** A server that did not answer in time is taken as not running for this long (by url and pid). */
const SILENT_FOR_MS = 10_000;
const silentUntil = new Map<string, number>();

interface ServeState {
  url: string;
  pid: number;
  token: string;
  /** Whether it serves the support console at /console/ (absent in files written before it was said). */
  console?: boolean;
}

/** The running server as other processes see it: where it listens, and whether the console is there. */
export interface RunningServe {
  url: string;
  console: boolean;
}

/** The token this process announced, if it serves (it trusts its own file without asking itself). */
let ownToken: string | undefined;

export function writeServeState(dataDir: string, url: string, serves: { console: boolean }): void {
  ownToken = randomBytes(24).toString('base64url');
  const state: ServeState = {
    url: url.replace(/\/+$/, ''),
    pid: process.pid,
    token: ownToken,
    console: serves.console,
  };
  // Written whole under a temporary name created 0600, then renamed: never readable by others, never half-written.
  const tmp = join(dataDir, `.${FILE}.${process.pid}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  renameSync(tmp, join(dataDir, FILE));
}

/** Removes the file only when this process wrote it (a second server may have taken over). */
export function removeServeState(dataDir: string): void {
  const s = readServeState(dataDir);
  if (s?.pid === process.pid && s.token === ownToken) rmSync(join(dataDir, FILE), { force: true });
  ownToken = undefined;
}

/** What GET /_esign/serve-proof answers: the HMAC of `challenge` under this process's token. */
export function serveProof(challenge: string): string | undefined {
  return ownToken === undefined ? undefined : proofOf(ownToken, challenge);
}

const proofOf = (token: string, challenge: string) => createHmac('sha256', token).update(challenge).digest('hex');

function readServeState(dataDir: string): ServeState | undefined {
  try {
    const s = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as Partial<ServeState>;
    return typeof s.url === 'string' && Number.isInteger(s.pid) && typeof s.token === 'string' && s.token
      ? (s as ServeState)
      : undefined;
  } catch {
    return undefined;
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The `esign serve` running for this directory, if one does and proves it. A file that does not say
 * whether the console is served (an older server's) is read as not serving it: no link is offered
 * that may not open.
 */
export function runningServe(dataDir: string): RunningServe | undefined {
  const s = readServeState(dataDir);
  if (!s || !alive(s.pid)) return undefined;
  const found = { url: s.url, console: s.console === true };
  if (s.pid === process.pid) return s.token === ownToken ? found : undefined;
  const who = `${s.pid} ${s.url}`;
  if ((silentUntil.get(who) ?? 0) > Date.now()) return undefined;
  const challenge = randomBytes(16).toString('hex');
  const answer = askSync(`${s.url}${SERVE_PROOF_PATH}?challenge=${challenge}`);
  if (answer === 'silent') {
    silentUntil.set(who, Date.now() + SILENT_FOR_MS);
    return undefined;
  }
  const expected = Buffer.from(proofOf(s.token, challenge));
  return answer && answer.length === expected.length && timingSafeEqual(answer, expected) ? found : undefined;
}

/**
 * The worker: one GET, its body (at most 64 bytes) written into the shared buffer. State 2: asked,
 * 3: its connection accepted, 1: done.
 */
const ASK = `
const { workerData: { url, shared, timeout } } = require('node:worker_threads');
const state = new Int32Array(shared, 0, 2);
const bytes = new Uint8Array(shared, 8);
const finish = (body) => {
  if (body) { bytes.set(body.subarray(0, bytes.length)); state[1] = Math.min(body.length, bytes.length); }
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
  process.exit(0);
};
try {
  const mod = url.startsWith('https:') ? require('node:https') : require('node:http');
  Atomics.store(state, 0, 2);
  Atomics.notify(state, 0);
  const req = mod.get(url, { timeout, headers: { accept: 'text/plain' } }, (res) => {
    if (res.statusCode !== 200) return finish();
    const chunks = [];
    let n = 0;
    res.on('data', (c) => { chunks.push(c); n += c.length; if (n > 64) { res.destroy(); finish(); } });
    res.on('end', () => finish(Buffer.concat(chunks)));
    res.on('error', () => finish());
  });
  req.on('socket', (socket) => socket.once(url.startsWith('https:') ? 'secureConnect' : 'connect', () => {
    if (Atomics.compareExchange(state, 0, 2, 3) === 2) Atomics.notify(state, 0);
  }));
  req.on('timeout', () => { req.destroy(); finish(); });
  req.on('error', () => finish());
} catch { finish(); }
`;

/**
 * GETs `url` and returns its body (undefined: refused, not 200, or not asked at all), blocking this
 * thread until it is in; 'silent' when the server did not connect or answer in time.
 */
function askSync(url: string): Buffer | undefined | 'silent' {
  const shared = new SharedArrayBuffer(8 + 64);
  const state = new Int32Array(shared, 0, 2);
  // Loaded here: every engine that never asks would pay for node:worker_threads (about 2 ms).
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(ASK, { eval: true, workerData: { url, shared, timeout: 2 * ANSWER_TIMEOUT_MS } });
  worker.unref();
  worker.on('error', () => {});
  Atomics.wait(state, 0, 0, WORKER_START_MS);
  if (Atomics.load(state, 0) === 2) Atomics.wait(state, 0, 2, CONNECT_TIMEOUT_MS);
  if (Atomics.load(state, 0) === 3) Atomics.wait(state, 0, 3, ANSWER_TIMEOUT_MS);
  const done = Atomics.load(state, 0);
  if (done !== 1) {
    void worker.terminate();
    return done === 0 ? undefined : 'silent';
  }
  return Buffer.from(new Uint8Array(shared, 8, state[1]));
}
