// Issue 44: documents built to hurt, sent by a key holder to `esign serve` as a process (with the
// built-in HTML renderer: no Chromium on its PATH). Each is refused with its reason, the server's
// resident memory never passes 300 MB (the sandbox process that parses the document is capped
// apart), and a second key is answered while the document is still being processed: the sandbox
// process is held stopped (SIGSTOP) once the document is handed to it, the second key's GET /bundles/
// must be answered meanwhile, then the sandbox goes on. That is the stall of issue 44 (40-160 s of
// parsing on the server's event loop) shown by the order of events, on any machine at any load; how
// long others wait on this machine is measured in bench/security.mjs --only documents, not here.
// The corpus is generated (bench/hostile-documents.mjs).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hostileDocuments } from '../../bench/hostile-documents.mjs';
import { BIN } from '../cli/serveProcess.js';
import { CONTRACT_PDF, tempDir } from '../helpers.js';
import { raw } from '../rawHttp.js';

const data = tempDir('esign-hostile-');
afterAll(() => data.cleanup());
const dataDir = join(data.dir, 'esign');
// The server's own temporary directory: a document handed to the sandbox is a file written there.
const scratch = mkdtempSync(join(tmpdir(), 'esign-hostile-tmp-'));
chmodSync(scratch, 0o755);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
// No chromium on PATH: the built-in renderer takes HTML (node and prlimit are found by their paths).
const env = { ...process.env, ESIGN_DATA_DIR: dataDir, PATH: '/nonexistent', ESIGN_CHROMIUM: '', TMPDIR: scratch };
let server: ChildProcess;
let origin: string;
let key: string;
let other: string;

/** The server's resident memory at its peak so far, in MB (Linux /proc). */
const peakMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024;
/** Resets that peak to the memory now (Linux clear_refs 5): each test's bound is on its own work, not an earlier one's. */
const resetPeak = () => writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
beforeEach(resetPeak);

/** Whether `pid` runs (a process killed at a deadline stays a zombie until the server reaps it). */
function live(pid: number): boolean {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return !/^\S+ \(.*\) [ZX]/s.test(stat);
}

/** The server's live child processes (here only its document sandbox: no Chromium, no converter). */
function sandboxes(): number[] {
  const task = `/proc/${server.pid}/task`;
  return readdirSync(task).flatMap((t) =>
    readFileSync(join(task, t, 'children'), 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
      .filter((pid) => {
        try {
          return live(pid);
        } catch {
          return false; // gone between the two reads
        }
      }),
  );
}

/** The size of the document handed to the sandbox (esign-documents-<x>/document.<ext>), once written whole. */
function handedOver(): number | undefined {
  for (const dir of readdirSync(scratch).filter((d) => d.startsWith('esign-documents-')))
    for (const f of readdirSync(join(scratch, dir), { withFileTypes: true }))
      if (f.name.startsWith('document.')) return statSync(join(scratch, dir, f.name), { throwIfNoEntry: false })?.size;
  return undefined;
}

/** A PDF no earlier request sent (the store answers a known one without the sandbox). */
async function freshPdf(): Promise<Buffer> {
  const { PDFDocument } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.setTitle(`warm ${process.hrtime.bigint()}`);
  doc.addPage();
  return Buffer.from(await doc.save());
}

const bundleRequest = (document: Record<string, unknown>) => ({
  packets: [{ key: 'a', name: 'Ada', email: 'ada@example.com' }],
  documents: [{ key: 'd', ...document }],
});

/** POST /bundles/ with `document` as the one document of a one-signer JSON request. */
const createWith = (document: Record<string, unknown>) =>
  raw(origin, '/api/v2/bundles/', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(bundleRequest(document)),
  });

/**
 * The sandbox's processes, just used and idle: two sound PDFs' creates at once, which the pool's two
 * processes share when both are free (one idle for 30 s ends, and one ending while held is replaced).
 */
async function warmSandbox(): Promise<number[]> {
  await Promise.all(
    [0, 1].map(async () => {
      const r = await createWith({ file_b64: (await freshPdf()).toString('base64') });
      expect(r.status).toBe(201);
    }),
  );
  const pids = sandboxes();
  expect(pids.length).toBeGreaterThan(0);
  return pids;
}

/** Sends `signal` to each of `pids` that is still there (a process retired meanwhile is not an error); those it reached. */
function signal(pids: number[], name: 'SIGSTOP' | 'SIGCONT'): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, name);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
      throw e;
    }
  });
}

/**
 * Runs `work` (which sends a document) with the server's sandbox processes stopped: once the
 * document is with the sandbox (`handed()`), the other key's GET /bundles/ is answered while `work`
 * is still unsettled; then the sandbox goes on and `work` settles. After, the other key reads every
 * 200 ms until it does: every answer a 200.
 */
async function othersAnsweredWhileHeld<T>(
  handed: () => boolean,
  work: () => Promise<T>,
): Promise<{ result: T; reads: number }> {
  const held = signal(await warmSandbox(), 'SIGSTOP');
  expect(held.length, 'a sandbox process held').toBeGreaterThan(0);
  let settled = false;
  const running = work().finally(() => {
    settled = true;
  });
  try {
    await vi.waitFor(
      () => {
        if (!settled && !handed()) throw new Error('the document is not yet handed to the sandbox');
      },
      { timeout: 60_000, interval: 20 },
    );
    expect(settled, 'answered before the sandbox could look at it').toBe(false);
    const r = await raw(origin, '/api/v2/bundles/?per_page=1', { key: other });
    expect(r.status).toBe(200);
    expect(settled, 'the document answered while its sandbox was stopped').toBe(false);
  } finally {
    signal(held, 'SIGCONT');
  }
  let done = false;
  let reads = 1;
  const poll = (async () => {
    while (!done) {
      const r = await raw(origin, '/api/v2/bundles/?per_page=1', { key: other });
      expect(r.status).toBe(200);
      reads++;
      await new Promise((res) => setTimeout(res, 200));
    }
  })();
  try {
    return { result: await running, reads };
  } finally {
    done = true;
    await poll;
  }
}

function multipart(json: unknown, file: Buffer): { body: Buffer; type: string } {
  const b = `----hostile${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${b}\r\nContent-Disposition: form-data; name="bundle_request"\r\n\r\n${JSON.stringify(json)}\r\n` +
        `--${b}\r\nContent-Disposition: form-data; name="files"; filename="hostile.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${b}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${b}` };
}

beforeAll(async () => {
  const made = (name: string) =>
    execFileSync(process.execPath, [BIN, 'local', 'keys', 'create', '--name', name, '-q'], { env }).toString().trim();
  key = made('hostile');
  other = made('other');
  server = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  origin = await new Promise((resolve, reject) => {
    server.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim().split('\n')[0]!));
    server.once('exit', () => reject(new Error('serve exited early')));
  });
}, 120_000);
afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
});

const corpus = await hostileDocuments();

describe('esign serve and hostile documents', () => {
  it.each(corpus.map((d) => [d.name, d] as const))(
    '%s: refused with its reason, others answered, memory bounded',
    async (_, doc) => {
      // A PDF is handed to the sandbox as a file written whole; HTML is rendered by the background
      // work from the file store after the create's answer, and its Bundle stays pending until then.
      let created = false;
      const handed = () => (doc.html !== undefined ? created : handedOver() === doc.pdf!.length);
      const { result, reads } = await othersAnsweredWhileHeld(handed, async () => {
        if (doc.html !== undefined) {
          const r = await createWith({ file_html: doc.html });
          expect(r.status).toBe(201);
          created = true;
          const id = (r.json() as { id: string }).id;
          // Pending, then failed by the background work with the reason.
          for (;;) {
            const b = (await raw(origin, `/api/v2/bundles/${id}`, { key })).json() as { status: string };
            if (b.status !== 'pe') return { status: 200, body: b };
            await new Promise((res) => setTimeout(res, 250));
          }
        }
        const json = bundleRequest(
          doc.multipart ? { file_index: 0, ...doc.extra } : { file_b64: doc.pdf!.toString('base64'), ...doc.extra },
        );
        const sent = doc.multipart
          ? multipart(json, doc.pdf!)
          : { body: JSON.stringify(json), type: 'application/json' };
        const r = await raw(origin, '/api/v2/bundles/', {
          method: 'POST',
          key,
          headers: { 'content-type': sent.type },
          body: sent.body,
        });
        return { status: r.status, body: r.json() };
      });
      const body = result.body as { status?: string; errors?: { message: string }[] };
      if (doc.html !== undefined) expect(body.status).toBe('fa');
      else expect(result.status).toBe(400);
      expect(JSON.stringify(body.errors)).toMatch(doc.reason);
      expect(reads).toBeGreaterThan(0);
      expect(peakMb()).toBeLessThan(300);
    },
    // Twice an HTML document's worst case: three tries at its 35 s deadline, 15 s of pauses between.
    240_000,
  );

  it('still creates a Bundle from a sound PDF afterwards, and refuses a refused PDF again without a new parse', async () => {
    const ok = await createWith({ file_b64: CONTRACT_PDF.toString('base64') });
    expect(ok.status).toBe(201);
    // Refused again from what the server remembers: with every sandbox process stopped, the answer
    // still comes (a new parse would wait for them), and no document is handed over.
    const dag = corpus[0]!.pdf!;
    const held = signal(await warmSandbox(), 'SIGSTOP');
    expect(held.length, 'a sandbox process held').toBeGreaterThan(0);
    try {
      const again = await createWith({ file_b64: dag.toString('base64') });
      expect(again.status).toBe(400);
      expect(JSON.stringify(again.json())).toMatch(corpus[0]!.reason);
      expect(handedOver()).toBeUndefined();
    } finally {
      signal(held, 'SIGCONT');
    }
    expect(peakMb()).toBeLessThan(300);
  }, 60_000);
});
