// Issue 44: documents built to hurt, sent by a key holder to `esign serve` as a process (with the
// built-in HTML renderer: no Chromium on its PATH). Each is refused with its reason within a bound,
// a second key's GET /bundles/ is answered within 1 s meanwhile, and the server's resident memory
// never passes 300 MB (the sandbox process that parses the document is capped apart).
// The corpus is generated (bench/hostile-documents.mjs); bench/security.mjs --only documents prints its figures.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileDocuments } from '../../bench/hostile-documents.mjs';
import { BIN } from '../cli/serveProcess.js';
import { CONTRACT_PDF, tempDir } from '../helpers.js';
import { raw } from '../rawHttp.js';

const data = tempDir('esign-hostile-');
afterAll(() => data.cleanup());
const dataDir = join(data.dir, 'esign');
// No chromium on PATH: the built-in renderer takes HTML (node and prlimit are found by their paths).
const env = { ...process.env, ESIGN_DATA_DIR: dataDir, PATH: '/nonexistent', ESIGN_CHROMIUM: '' };
let server: ChildProcess;
let origin: string;
let key: string;
let other: string;

/** The server's resident memory at its peak so far, in MB (Linux /proc). */
const peakMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024;

/** The other key's GET /bundles/ every 200 ms while `work` runs: its slowest answer, in ms. */
async function othersWhile<T>(work: () => Promise<T>): Promise<{ result: T; slowest: number; reads: number }> {
  let done = false;
  let slowest = 0;
  let reads = 0;
  const poll = (async () => {
    while (!done) {
      const t = performance.now();
      const r = await raw(origin, '/api/v2/bundles/?per_page=1', { key: other });
      expect(r.status).toBe(200);
      slowest = Math.max(slowest, performance.now() - t);
      reads++;
      await new Promise((res) => setTimeout(res, 200));
    }
  })();
  try {
    const result = await work();
    return { result, slowest, reads };
  } finally {
    done = true;
    await poll;
  }
}

/**
 * The bound on others' latency: `ms` on a machine with a core free per two runnable tasks, scaled
 * by the load beyond that (the suite runs on 2 shared cores at load averages up to 20, where any
 * work of the event loop takes several times as long). The stalls of issue 44 were 40-160 s.
 */
const othersBudget = (ms: number) => ms * Math.max(1, loadavg()[0]! / cpus().length / 2);

const bundleRequest = (document: Record<string, unknown>) => ({
  packets: [{ key: 'a', name: 'Ada', email: 'ada@example.com' }],
  documents: [{ key: 'd', ...document }],
});

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
}, 30_000);
afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
});

const corpus = await hostileDocuments();

describe('esign serve and hostile documents', () => {
  it.each(corpus.map((d) => [d.name, d] as const))(
    '%s: refused with its reason, others answered, memory bounded',
    async (_, doc) => {
      // What the machine itself makes others wait meanwhile (other test files share its 2 cores): the
      // document is held to what it adds to that.
      const calm = await othersWhile(async () => {
        await new Promise((res) => setTimeout(res, 1500));
        return { status: 200, body: {} };
      });
      const t0 = performance.now();
      const { result, slowest, reads } = await othersWhile(async () => {
        if (doc.html !== undefined) {
          const r = await raw(origin, '/api/v2/bundles/', {
            method: 'POST',
            key,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(bundleRequest({ file_html: doc.html })),
          });
          expect(r.status).toBe(201);
          const id = (r.json() as { id: string }).id;
          // Pending, then failed by the background work with the reason.
          for (;;) {
            const b = (await raw(origin, `/api/v2/bundles/${id}`, { key })).json() as { status: string };
            if (b.status !== 'pe') return { status: 200, body: b };
            await new Promise((res) => setTimeout(res, 500));
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
      const seconds = (performance.now() - t0) / 1000;
      const body = result.body as { status?: string; errors?: { message: string }[] };
      if (doc.html !== undefined) expect(body.status).toBe('fa');
      else expect(result.status).toBe(400);
      expect(JSON.stringify(body.errors)).toMatch(doc.reason);
      // The create's checks answer within their 20 s deadline; the HTML job ends within its 35 s
      // (plus the create, the background run's claim and the poll).
      expect(seconds).toBeLessThan(doc.html !== undefined ? 60 : 25);
      expect(reads).toBeGreaterThan(0);
      // A 9 MB HTML body is still parsed as JSON and stored in the database on the event loop (the
      // render is apart): seconds on a loaded machine. Documents sent as PDFs hold others under 1 s.
      expect(slowest - calm.slowest).toBeLessThan(othersBudget(doc.html !== undefined ? 5000 : 1000));
      expect(peakMb()).toBeLessThan(300);
    },
    120_000,
  );

  it('still creates a Bundle from a sound PDF afterwards, and refuses a refused PDF again at once', async () => {
    const ok = await raw(origin, '/api/v2/bundles/', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(bundleRequest({ file_b64: CONTRACT_PDF.toString('base64') })),
    });
    expect(ok.status).toBe(201);
    const dag = corpus[0]!.pdf!;
    const t = performance.now();
    const again = await raw(origin, '/api/v2/bundles/', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(bundleRequest({ file_b64: dag.toString('base64') })),
    });
    expect(again.status).toBe(400);
    expect(performance.now() - t).toBeLessThan(500);
    expect(peakMb()).toBeLessThan(300);
  }, 60_000);
});
