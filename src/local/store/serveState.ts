// Which `esign serve` serves this data directory: it writes serve.json (its public URL, pid and a
// random token; mode 0600) on start and removes it on stop, so other processes can point links at
// it. The file is trusted only when the server it names proves it holds the token: a live pid is
// not enough (pids are recycled, and a port can be taken by another program once the server dies),
// and links carry live tokens to the URL the file names.
//
// The proof is an HMAC of a fresh challenge (GET /_esign/serve-proof?challenge=...), so the answer
// never reveals the token. Callers ask synchronously (link building is synchronous), so the request
// runs in a worker thread while this one waits, bounded by PROOF_TIMEOUT_MS.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { SERVE_PROOF_PATH } from '../../service/hosting.js';

const FILE = 'serve.json';
const PROOF_TIMEOUT_MS = 1500;

export interface ServeState {
  url: string;
  pid: number;
  token: string;
}

/** The token this process announced, if it serves (it trusts its own file without asking itself). */
let ownToken: string | undefined;

export function writeServeState(dataDir: string, url: string): void {
  ownToken = randomBytes(24).toString('base64url');
  const state: ServeState = { url: url.replace(/\/+$/, ''), pid: process.pid, token: ownToken };
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

/** The URL of the `esign serve` running for this directory, if one does and proves it. */
export function runningServeUrl(dataDir: string): string | undefined {
  const s = readServeState(dataDir);
  if (!s || !alive(s.pid)) return undefined;
  if (s.pid === process.pid) return s.token === ownToken ? s.url : undefined;
  const challenge = randomBytes(16).toString('hex');
  const answer = askSync(`${s.url}${SERVE_PROOF_PATH}?challenge=${challenge}`);
  const expected = Buffer.from(proofOf(s.token, challenge));
  return answer && answer.length === expected.length && timingSafeEqual(answer, expected) ? s.url : undefined;
}

/** The worker: one GET, its body (at most 64 bytes) written into the shared buffer. */
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
  const req = mod.get(url, { timeout, headers: { accept: 'text/plain' } }, (res) => {
    if (res.statusCode !== 200) return finish();
    const chunks = [];
    let n = 0;
    res.on('data', (c) => { chunks.push(c); n += c.length; if (n > 64) { res.destroy(); finish(); } });
    res.on('end', () => finish(Buffer.concat(chunks)));
    res.on('error', () => finish());
  });
  req.on('timeout', () => { req.destroy(); finish(); });
  req.on('error', () => finish());
} catch { finish(); }
`;

/** GETs `url` and returns its body, blocking this thread until it is in or the time is up. */
function askSync(url: string): Buffer | undefined {
  const shared = new SharedArrayBuffer(8 + 64);
  const state = new Int32Array(shared, 0, 2);
  const worker = new Worker(ASK, { eval: true, workerData: { url, shared, timeout: PROOF_TIMEOUT_MS } });
  worker.unref();
  worker.on('error', () => {});
  const waited = Atomics.wait(state, 0, 0, PROOF_TIMEOUT_MS + 500);
  if (waited === 'timed-out' || Atomics.load(state, 0) !== 1) {
    void worker.terminate();
    return undefined;
  }
  return Buffer.from(new Uint8Array(shared, 8, state[1]));
}
