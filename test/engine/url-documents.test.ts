// Documents given by `file_url`: 201 with `pe`, background download over real HTTP, then `se`
// (event dp) or `fa` (errors naming the document, event bf, nothing sent).
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONTRACT_B64,
  CONTRACT_PDF,
  bundleRequest,
  expectApiError,
  fileServer,
  fixture,
  useFileServer,
} from '../helpers.js';
import { eventKinds, outboxOf, useEngine, withDocuments } from './support.js';

const ctx = useEngine();
const server = useFileServer({
  '/contract.pdf': { body: CONTRACT_PDF },
  '/slow.pdf': { body: CONTRACT_PDF, delayMs: 150 },
  '/notes.txt': { body: readFileSync(fixture('not-a-pdf.txt')) },
  '/corrupt.pdf': { body: readFileSync(fixture('corrupt.pdf')) },
  '/gone.pdf': { status: 410, body: 'gone' },
});

/** A URL on a port that nothing listens on (bound, then released). */
async function closedPortUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}/contract.pdf`;
}

const urlBundle = (url: string, over: Record<string, unknown> = {}) =>
  bundleRequest({ documents: [{ key: 'contract', file_url: url }], ...over });

describe('file_url documents that download', () => {
  it('are pending at creation and sent once processed (event dp)', async () => {
    const { e } = ctx;
    const created = await e.createBundle(urlBundle(server.url('/slow.pdf')));
    expect(created.status).toBe('pe');
    expect(created.sent).toBeNull();
    expect(created.packets.map((p) => p.status)).toEqual(['ne', 'ne']);
    expect(outboxOf(e, created.id)).toEqual([]);

    await e.settle();
    const b = await e.getBundle(created.id);
    expect(b.status).toBe('se');
    expect(b.errors).toEqual([]);
    expect(b.packets.map((p) => p.status)).toEqual(['se', 'se']);
    expect(b.documents).toEqual([{ key: 'contract', name: 'slow.pdf' }]);
    expect(await eventKinds(e, b.id)).toEqual(['bc', 'dp', 'bl', 'ns', 'ns']);
    expect(outboxOf(e, b.id).map((m) => m.recipient)).toEqual(['ada@example.com', 'bob@example.com']);
  });

  it('wait for every document: a Bundle mixing base64 and URL documents launches after the download', async () => {
    const { e } = ctx;
    const created = await e.createBundle(
      withDocuments({ key: 'a', file_b64: CONTRACT_B64 }, { key: 'b', file_url: server.url('/contract.pdf') }),
    );
    expect(created.status).toBe('pe');
    await e.settle();
    expect((await e.getBundle(created.id)).status).toBe('se');
  });

  it('share the stored blob with an identical base64 upload', async () => {
    const { e } = ctx;
    await e.createBundle(bundleRequest());
    await e.createBundle(urlBundle(server.url('/contract.pdf')));
    await e.settle();
    expect(e.db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 1 });
  });

  it('several Bundles created together are all processed', async () => {
    const { e } = ctx;
    const created = await Promise.all(
      [1, 2, 3, 4].map((n) => e.createBundle(urlBundle(server.url(n % 2 ? '/slow.pdf' : '/contract.pdf')))),
    );
    await e.settle();
    for (const c of created) expect((await e.getBundle(c.id)).status).toBe('se');
  });

  it('cannot be sent while the download is under way', async () => {
    const { e } = ctx;
    const created = await e.createBundle(urlBundle(server.url('/slow.pdf')));
    expect(await e.validateBundle(created.id)).toMatchObject({
      can_send: false,
      n_docs: 1,
      msg: expect.stringMatching(/being processed/),
    });
    await expectApiError(e.sendBundle(created.id), 400);
    await e.settle();
    expect((await e.getBundle(created.id)).status).toBe('se');
    expect(outboxOf(e, created.id)).toHaveLength(2);
  });

  it('a Bundle cancelled while pending is not launched when the download ends', async () => {
    const { e } = ctx;
    const created = await e.createBundle(urlBundle(server.url('/slow.pdf')));
    expect((await e.cancelBundle(created.id)).status).toBe('ca');
    await e.settle();
    const b = await e.getBundle(created.id);
    expect(b.status).toBe('ca');
    expect(await eventKinds(e, b.id)).not.toContain('bl');
    expect(e.outbox()).toEqual([]);
  });

  it('a Bundle cancelled while pending stays cancelled, with nothing reported, when the download fails', async () => {
    const { e } = ctx;
    const created = await e.createBundle(urlBundle(server.url('/gone.pdf')));
    await e.cancelBundle(created.id);
    await e.settle();
    const b = await e.getBundle(created.id);
    expect(b.status).toBe('ca');
    expect(b.errors).toEqual([]);
    expect(await eventKinds(e, b.id)).toEqual(['bc', 'bx']);
  });

  it('documents of Bundles created while a processing run is ending are all processed', async () => {
    const { e } = ctx;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push((await e.createBundle(urlBundle(server.url(i % 2 ? '/slow.pdf' : '/contract.pdf')))).id);
      await new Promise((r) => setTimeout(r, i * 40));
    }
    await e.settle();
    for (const id of ids) expect((await e.getBundle(id)).status).toBe('se');
  });

  it('a draft stays a draft after processing, and can then be sent', async () => {
    const { e } = ctx;
    const created = await e.createBundle(urlBundle(server.url('/contract.pdf'), { status: 'dr' }));
    expect(created.status).toBe('dr');
    expect(await e.validateBundle(created.id)).toMatchObject({ can_send: false });
    await e.settle();
    const b = await e.getBundle(created.id);
    expect(b.status).toBe('dr');
    expect(await eventKinds(e, b.id)).toEqual(['bc', 'bd', 'dp']);
    expect(e.outbox()).toEqual([]);
    expect(await e.validateBundle(b.id)).toEqual({ can_send: true, msg: expect.any(String), n_docs: 1 });
    expect((await e.sendBundle(b.id)).status).toBe('se');
  });
});

describe('file_url documents that cannot be used end the Bundle in fa', () => {
  const failures: [string, () => Promise<string>][] = [
    ['an unreachable URL (closed port)', closedPortUrl],
    ['an HTTP 404', async () => server.url('/missing.pdf')],
    ['an HTTP 410', async () => server.url('/gone.pdf')],
    ['a body that is not a PDF', async () => server.url('/notes.txt')],
    ['a corrupt PDF', async () => server.url('/corrupt.pdf')],
  ];

  for (const [name, url] of failures) {
    it(name, async () => {
      const { e } = ctx;
      const created = await e.createBundle(urlBundle(await url()));
      expect(created.status).toBe('pe');
      await e.settle();
      const b = await e.getBundle(created.id);
      expect(b.status).toBe('fa');
      expect(b.errors.length).toBeGreaterThan(0);
      expect(b.errors[0].errors?.map((x) => x.field)).toEqual(['documents[0].file_url']);
      expect(b.errors[0].message).toMatch(/contract/);
      const events = await eventKinds(e, b.id);
      expect(events).toContain('bf');
      expect(events).not.toContain('bl');
      expect(e.outbox()).toEqual([]);
      expect(b.packets.map((p) => p.status)).toEqual(['ne', 'ne']);
    });
  }

  it('names the failing document by its index', async () => {
    const { e } = ctx;
    const created = await e.createBundle(
      bundleRequest({
        documents: [
          { key: 'ok', file_url: server.url('/contract.pdf') },
          { key: 'bad', file_url: server.url('/missing.pdf') },
        ],
      }),
    );
    await e.settle();
    const b = await e.getBundle(created.id);
    expect(b.status).toBe('fa');
    expect(b.errors.flatMap((x) => x.errors?.map((f) => f.field) ?? [])).toEqual(['documents[1].file_url']);
    expect(e.outbox()).toEqual([]);
  });

  it('a draft whose document fails becomes fa too', async () => {
    const { e } = ctx;
    const created = await e.createBundle(urlBundle(server.url('/missing.pdf'), { status: 'dr' }));
    await e.settle();
    const b = await e.getBundle(created.id);
    expect(b.status).toBe('fa');
    expect(b.errors).toHaveLength(1);
    expect(await eventKinds(e, b.id)).toEqual(['bc', 'bd', 'bf']);
    expect(e.outbox()).toEqual([]);
  });

  it('a failed Bundle cannot be sent', async () => {
    const { e } = ctx;
    const created = await e.createBundle(urlBundle(server.url('/missing.pdf')));
    await e.settle();
    expect((await e.validateBundle(created.id)).can_send).toBe(false);
    await expectApiError(e.sendBundle(created.id), 400);
  });

  it('a URL that is not http(s) is refused at creation', async () => {
    const { e } = ctx;
    await expectApiError(e.createBundle(urlBundle('ftp://example.com/a.pdf')), 400, { field: 'documents[0].file_url' });
  });
});

describe('file_url limits', () => {
  const redirects = (n: number) =>
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [
        `/r${i}`,
        { status: 302, body: '', headers: { location: i + 1 < n ? `/r${i + 1}` : '/contract.pdf' } },
      ]),
    );

  it('follows up to five redirects, and fails the Bundle after more', async () => {
    const { e } = ctx;
    const hops = await fileServer({ ...redirects(7), '/contract.pdf': { body: CONTRACT_PDF } });
    try {
      const five = await e.createBundle(urlBundle(hops.url('/r2')));
      const seven = await e.createBundle(urlBundle(hops.url('/r0')));
      await e.settle();
      expect((await e.getBundle(five.id)).status).toBe('se');
      const failed = await e.getBundle(seven.id);
      expect(failed.status).toBe('fa');
      expect(failed.errors[0]!.message).toMatch(/more than 5 redirects/);
    } finally {
      await hops.close();
    }
  });

  it('on esign serve, refuses private and loopback addresses unless the account allows them', async () => {
    const { LocalEngine } = await import('../../src/local/engine.js');
    const guarded = new LocalEngine({ dataDir: ctx.e.dataDir, guardUrls: true });
    try {
      const refused = await guarded.createBundle(urlBundle(server.url('/contract.pdf')));
      const byName = await guarded.createBundle(
        urlBundle(server.url('/contract.pdf').replace('127.0.0.1', 'localhost')),
      );
      await guarded.settle();
      for (const id of [refused.id, byName.id]) {
        const b = await guarded.getBundle(id);
        expect(b.status).toBe('fa');
        expect(b.errors[0]!.message).toMatch(/private or loopback address/);
      }
      guarded.account.update({ allow_private_urls: true });
      const allowed = await guarded.createBundle(urlBundle(server.url('/contract.pdf')));
      await guarded.settle();
      expect((await guarded.getBundle(allowed.id)).status).toBe('se');
    } finally {
      await guarded.close();
    }
  });
});

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['::1', true],
    ['fd00::1', true],
    ['fe80::1', true],
    ['::ffff:10.0.0.1', true],
    ['93.184.216.34', false],
    ['2606:4700::1111', false],
    ['::ffff:8.8.8.8', false],
  ])('%s is private: %s', async (address, expected) => {
    const { isPrivateAddress } = await import('../../src/local/documents/urlFetch.js');
    expect(isPrivateAddress(address)).toBe(expected);
  });
});

describe('oversized file_url documents', () => {
  it('fail the Bundle (declared or streamed past 50 MB) and touch nothing else', async () => {
    const { e } = ctx;
    const big = Buffer.alloc(50 * 1024 * 1024 + 1, 0x20);
    const { createServer: httpServer } = await import('node:http');
    const srv = httpServer((req, res) => {
      if (req.url === '/declared.pdf') res.writeHead(200, { 'content-length': String(big.length) }).end(big);
      else res.writeHead(200, { 'transfer-encoding': 'chunked' }).end(big); // no length: counted while streaming
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    try {
      const bystander = await e.createBundle(bundleRequest());
      const declared = await e.createBundle(urlBundle(`http://127.0.0.1:${port}/declared.pdf`));
      const streamed = await e.createBundle(urlBundle(`http://127.0.0.1:${port}/streamed.pdf`));
      await e.settle();
      for (const id of [declared.id, streamed.id]) {
        const b = await e.getBundle(id);
        expect(b.status).toBe('fa');
        expect(b.errors[0]!.message).toMatch(/larger than 50 MB/);
        expect(outboxOf(e, id)).toEqual([]);
      }
      expect((await e.getBundle(bystander.id)).status).toBe('se');
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});
