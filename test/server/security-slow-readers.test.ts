// Issue 36 item 2: slow readers of a public /files/ link cannot take the slots from key holders.
// A connection that shows no key is evictable whatever it is doing (reading a file included), and
// an answer read slower than the floor is cut. The test runs 150 readers against 128 slots;
// bench/security.mjs --only readers runs 4,200 against 4,096 (fbda499: 97 of 199 keyed requests failed)
// and measures how long the key holder waits. Here the server's timeouts outlast the test: a keyed
// request answered got a slot made by evicting a reader, never one a timeout freed.
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadPdfLib } from '../../src/lazyImport.js';
import { LocalEngine } from '../../src/local/engine.js';
import type { ServerLimits } from '../../src/server/limits.js';
import { type ServedEngine, serveEngine } from '../engineServer.js';
import { bundleRequest, tempDir } from '../helpers.js';

const MB = 1024 * 1024;
const FOUR_MINUTES = 240_000;
/** One engine for every test (its 12 MB file made and signed once); a server over it per test. */
let engine: LocalEngine;
let path: string;
const data = tempDir('esign-slow-readers-');
let srv: ServedEngine | undefined;
const readers: Socket[] = [];
afterEach(async () => {
  for (const s of readers.splice(0)) s.destroy();
  srv?.app.server.closeAllConnections();
  await srv?.close();
  srv = undefined;
});
afterAll(async () => {
  await engine?.close();
  data.cleanup();
});
const serve = async (limits: Partial<ServerLimits>) => (srv = await serveEngine(engine, { limits }, 'slow'));

/** A 12 MB PDF: one page, and an incompressible stream (more than the kernel buffers a stalled reader). */
async function bigPdf(): Promise<string> {
  const { PDFDocument, PDFName } = await loadPdfLib();
  const doc = await PDFDocument.create();
  doc.addPage([600, 800]);
  const pad = Buffer.alloc(12 * MB);
  for (let i = 0; i < pad.length; i += 4) pad.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
  // A raw stream the catalog points at: stored as it is (attach would deflate 12 MB in JavaScript).
  doc.catalog.set(PDFName.of('Pad'), doc.context.register(doc.context.stream(pad)));
  return Buffer.from(await doc.save({ useObjectStreams: false })).toString('base64');
}

/** The path of a /files/ link to the signed 12 MB document of a completed Bundle. */
async function fileLink(engine: LocalEngine, pdf: string): Promise<string> {
  const b = await engine.createBundle(bundleRequest({ documents: [{ key: 'd', file_b64: pdf }] }));
  await engine.settle();
  for (const p of (await engine.getBundle(b.id)).packets) await engine.signPacket(p.id, {});
  await engine.settle();
  const files = await engine.getBundleFiles(b.id);
  const big = files.find((f) => (f.size ?? 0) > 8 * MB) ?? files[0]!;
  return new URL(big.file_url).pathname;
}

beforeAll(async () => {
  engine = new LocalEngine({ dataDir: data.dir });
  path = await fileLink(engine, await bigPdf());
}, 120_000);

/** A reader from its own loopback address that asks for `path` and then reads nothing. */
function stalledReader(port: number, path: string, i: number, key?: string): Promise<Socket> {
  return new Promise((resolve) => {
    const localAddress = `127.${1 + (i >> 16)}.${(i >> 8) & 255}.${i & 255 || 1}`;
    const s = connect({ host: '127.0.0.1', port, localAddress });
    readers.push(s);
    s.on('error', () => resolve(s));
    s.once('connect', () => {
      s.pause();
      s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n${key ? `Authorization: Token ${key}\r\n` : ''}\r\n`);
      resolve(s);
    });
  });
}

/** A keyed GET /bundles/ on a new connection: its status, or 0 when the connection closed unanswered. */
function keyedProbe(s: ServedEngine): Promise<number> {
  return new Promise((resolve) => {
    const c = connect({ host: '127.0.0.1', port: s.port });
    let got = '';
    c.on('error', () => {});
    c.on('data', (d: Buffer) => (got += d.toString('latin1')));
    c.once('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0)));
    c.write(`GET /api/v2/bundles/ HTTP/1.1\r\nHost: x\r\nAuthorization: Token ${s.key}\r\nConnection: close\r\n\r\n`);
  });
}

describe('slow readers of a public file link', () => {
  it('keyed requests on new connections get every answer while 150 stalled readers of a 12 MB file link hold 128 slots', async () => {
    const s = await serve({
      maxConnections: 128,
      readFloorBytes: 0,
      headersTimeoutMs: FOUR_MINUTES,
      requestTimeoutMs: FOUR_MINUTES,
      idleTimeoutMs: FOUR_MINUTES,
    });
    for (let i = 0; i < 150; i += 50)
      await Promise.all(Array.from({ length: 50 }, (_, j) => stalledReader(s.port, path, i + j)));
    // Until the server has taken them all in (a loaded machine is slow to): every slot is a download
    // in progress that its reader stalls.
    const open = () => new Promise<number>((r) => s.app.server.getConnections((_e, n) => r(n)));
    for (let i = 0; i < 100 && (await open()) < 125; i++) await new Promise((r) => setTimeout(r, 200));
    expect(await open()).toBeGreaterThanOrEqual(125);
    await new Promise((r) => setTimeout(r, 1000));
    for (let i = 0; i < 10; i++) {
      // A new connection each time, raw (no client retries on a reset): no keyed connection is left
      // open to make room, as with a CLI run now and then.
      expect(await keyedProbe(s)).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await open()).toBeLessThanOrEqual(128);
  }, 120_000);

  it('cuts an answer read slower than the floor, key or not, and leaves a reader that keeps up alone', async () => {
    const s = await serve({ readFloorBytes: 256 * 1024, readWindowMs: 1000 });
    const anonymous = await stalledReader(s.port, path, 1);
    const keyed = await stalledReader(s.port, path, 2, s.key);
    // Each window: 4 MB went out at once (the kernel's buffers), then nothing; cut in the second.
    await new Promise((r) => setTimeout(r, 3_500));
    /** What the reader gets once it reads again: all of it, or what was sent before the cut. */
    const drain = (c: Socket) =>
      new Promise<number>((resolve) => {
        let n = 0;
        c.on('data', (d: Buffer) => (n += d.length));
        c.once('close', () => resolve(n));
        c.resume();
      });
    const got = await Promise.all([drain(anonymous), drain(keyed)]);
    for (const n of got) expect(n, 'bytes received before the cut').toBeLessThan(8 * MB);
    const whole = await fetch(`${s.origin}${path}`);
    expect(whole.status).toBe(200);
    expect((await whole.arrayBuffer()).byteLength).toBeGreaterThan(8 * MB);
  }, 120_000);

  it('answers at most so many downloads at once to callers without a key (503, Retry-After), never turning a key holder away', async () => {
    const s = await serve({ publicDownloads: 3, readFloorBytes: 0 });
    const head = (c: Socket) =>
      new Promise<string>((resolve) => {
        c.once('data', (d: Buffer) => resolve(d.toString('latin1', 0, Math.min(d.length, 400))));
        c.resume();
      });
    const stalled = [];
    for (let i = 0; i < 3; i++) stalled.push(await stalledReader(s.port, path, 10 + i));
    for (const c of stalled) expect(await head(c)).toMatch(/^HTTP\/1\.1 200/);
    for (const c of stalled) c.pause();
    const fourth = await head(await stalledReader(s.port, path, 20));
    expect(fourth).toMatch(/^HTTP\/1\.1 503/);
    expect(fourth).toMatch(/\r\nretry-after: 10\r\n/i);
    expect(await head(await stalledReader(s.port, path, 21, s.key))).toMatch(/^HTTP\/1\.1 200/);
    // One gone, a stranger's download is answered again.
    stalled[0]!.destroy();
    await new Promise((r) => setTimeout(r, 200));
    expect(await head(await stalledReader(s.port, path, 22))).toMatch(/^HTTP\/1\.1 200/);
  }, 120_000);
});
