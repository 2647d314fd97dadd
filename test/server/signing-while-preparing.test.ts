// Embedded signing while the documents are still processed (issue 45): the service's JS example app
// creates a Bundle with a file_url and at once asks for the embedded signing URL. The spec answers
// the create "after preliminary validation; documents may still be processing" and allows a 409 on
// embed_url only "when an embedded URL cannot be made": so a pending Bundle gets its URL, and the
// signing page says the documents are being prepared until they are, or shows the Bundle's failure.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { CONTRACT_PDF, bundleRequest, newEngine } from '../helpers.js';

let engine: ReturnType<typeof newEngine>;
let app: FastifyInstance;
let files: Server;
afterEach(async () => {
  await app?.close();
  files?.closeAllConnections();
  await new Promise((r) => files?.close(r));
  await engine?.dispose();
});

/** A file server on 127.0.0.1 whose one answer waits until `release` is called. */
async function heldFile(status: number): Promise<{ url: string; release: () => void }> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  files = createServer(async (_req, res) => {
    await gate;
    if (status !== 200) return void res.writeHead(status).end('gone');
    res.writeHead(200, { 'content-type': 'application/pdf' }).end(CONTRACT_PDF);
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(files.address() as AddressInfo).port}/contract.pdf`, release };
}

async function pendingEmbedded(fileUrl: string) {
  engine = newEngine();
  app = await buildServer({ service: engine, local: engine, authenticate: () => undefined });
  const b = await engine.createBundle(
    bundleRequest({
      packets: [{ key: 'v', name: 'Visitor', email: 'visitor@example.org', deliver_via: 'embed' }],
      documents: [{ key: 'c', file_url: fileUrl }],
    }),
  );
  expect(b.status).toBe('pe');
  const { url } = await engine.createEmbedUrl(b.packets[0]!.id);
  return { b, path: new URL(url).pathname };
}

describe('embed_url for a pending Bundle', () => {
  it('is made; the page says the documents are being prepared, reloads, and opens them once ready', async () => {
    const file = await heldFile(200);
    const { b, path } = await pendingEmbedded(file.url);
    const first = await app.inject({ method: 'GET', url: path });
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('Documents are being prepared');
    const refresh = String(first.headers.refresh);
    const session = /url=(\/\S+)$/.exec(refresh)![1]!;
    expect(refresh).toMatch(/^2; url=/);
    // The embedded URL is spent (single use): the page reloads its session, not the URL.
    expect((await app.inject({ method: 'GET', url: path })).statusCode).toBe(410);
    expect((await app.inject({ method: 'GET', url: session })).body).toContain('Documents are being prepared');
    expect((await engine.getPacket(b.packets[0]!.id)).status).not.toBe('st');

    file.release();
    await engine.settle();
    expect((await engine.getBundle(b.id)).status).toBe('se');
    const ready = await app.inject({ method: 'GET', url: session });
    expect(ready.statusCode).toBe(200);
    expect(ready.headers.refresh).toBeUndefined();
    expect(ready.body).not.toContain('Documents are being prepared');
    expect(ready.body).toContain('contract.pdf');
    // Now the signer has seen them: viewed (pv), and they sign.
    expect((await engine.getPacket(b.packets[0]!.id)).status).toBe('st');
    await engine.signPacket(b.packets[0]!.id, {});
    expect((await engine.getBundle(b.id)).status).toBe('co');
  });

  it('a document that cannot be fetched shows as the Bundle failure on the page', async () => {
    const file = await heldFile(404);
    const { b, path } = await pendingEmbedded(file.url);
    const session = /url=(\/\S+)$/.exec(String((await app.inject({ method: 'GET', url: path })).headers.refresh))![1]!;
    file.release();
    await engine.settle();
    expect((await engine.getBundle(b.id)).status).toBe('fa');
    const failed = await app.inject({ method: 'GET', url: session });
    expect(failed.statusCode).toBe(409);
    expect(failed.body).toContain('These documents could not be prepared: documents[0].file_url');
  });

  it('a draft still gets no embedded URL (409): it cannot be signed until sent', async () => {
    engine = newEngine();
    const b = await engine.createBundle(
      bundleRequest({ status: 'dr', packets: [{ key: 'v', name: 'V', email: 'v@example.org', deliver_via: 'embed' }] }),
    );
    await expect(engine.createEmbedUrl(b.packets[0]!.id)).rejects.toMatchObject({ status: 409 });
  });
});
