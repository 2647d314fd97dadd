// Items 3 and 5: the key is checked before a body is read; JSON bodies are bounded in size and
// nesting; malformed multipart and repeated query parameters are 400s, not 500s.
import { afterEach, describe, expect, it } from 'vitest';
import { rawSocket, type SecureServer, startServer } from './securityServer.js';

let srv: SecureServer | undefined;
/** A POST of `body` as it is, with this content type. */
const postRaw = (path: string, type: string, body: string) =>
  srv!.call(path, { method: 'POST', headers: { 'content-type': type }, body });
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const nested = (depth: number): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

describe('bodies before and after authentication', () => {
  it('answers 401 to a keyless request as soon as its headers are in, without waiting for its 56 MB body', async () => {
    srv = await startServer();
    const started = Date.now();
    const c = await rawSocket(
      srv.port,
      'POST /api/v2/persons/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 58720256\r\n\r\n{"name":"',
    );
    while (!c.received().includes('\r\n\r\n') && Date.now() - started < 3_000)
      await new Promise((r) => setTimeout(r, 20));
    expect(c.received()).toMatch(/^HTTP\/1\.1 401/);
    expect(c.received().toLowerCase()).toContain('connection: close');
    c.destroy();
  });

  it('refuses a JSON body past the route limit with a 413 that names it', async () => {
    srv = await startServer();
    const res = await srv.call('/api/v2/persons/', { method: 'POST', json: { name: 'x'.repeat(2 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toMatch(/at most 1 MB/);
  });

  it('refuses nesting deeper than the API uses, and GET /persons/ keeps answering', async () => {
    srv = await startServer();
    const deep = await srv.call('/api/v2/persons/', { method: 'POST', json: { name: 'Deep', metadata: nested(4000) } });
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { message: string }).message).toMatch(/nested deeper than 32/);
    const ok = await srv.call('/api/v2/persons/', { method: 'POST', json: { name: 'Fine', metadata: nested(5) } });
    expect(ok.status).toBe(201);
    expect((await srv.call('/api/v2/persons/')).status).toBe(200);
  });

  it('refuses prototype keys', async () => {
    srv = await startServer();
    const res = await postRaw('/api/v2/persons/', 'application/json', '{"name":"P","__proto__":{"admin":true}}');
    expect(res.status).toBe(400);
  });
});

describe('inputs that reached a 500', () => {
  it('multipart with no boundary, and one cut off before its closing boundary, are 400s', async () => {
    srv = await startServer();
    const noBoundary = await postRaw('/api/v2/bundles/', 'multipart/form-data', 'whatever');
    expect(noBoundary.status).toBe(400);
    const cut = await postRaw(
      '/api/v2/bundles/',
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 trunc',
    );
    expect(cut.status).toBe(400);
    expect(((await cut.json()) as { code: string }).code).toBe('parse_error');
    // Whole parts first, then one cut off (issue 36: a 500 "Premature close" on fbda499).
    let parts = '--XyZ\r\nContent-Disposition: form-data; name="bundle_request"\r\n\r\n{}\r\n';
    for (let i = 0; i < 3; i++)
      parts += `--XyZ\r\nContent-Disposition: form-data; name="files"; filename="f${i}.pdf"\r\n\r\n${'A'.repeat(300_000)}\r\n`;
    const late = await postRaw('/api/v2/bundles/', 'multipart/form-data; boundary=XyZ', parts);
    expect(late.status).toBe(400);
    expect(((await late.json()) as { message: string }).message).toMatch(/ends inside a file part/);
  });

  it('a body streamed in pieces that ends inside a file part is a 400 on each door (a 500 on 6076303)', async () => {
    srv = await startServer();
    const prep = await srv.call('/api/v2/bundles/preparation_session/', { method: 'POST', json: { upload_pdf: true } });
    expect(prep.status).toBe(201);
    const url = new URL(((await prep.json()) as { url: string }).url);
    const page = await (await srv.call(url.pathname)).text();
    const session = /action="(\/prepare\/session\/[^/"]+)\/bundle"/.exec(page)![1];
    // Sent chunked, a piece at a time, as a client streaming a file does; the closing boundary never comes.
    const streamed = (field: string) => {
      const pieces = [`--XyZ\r\nContent-Disposition: form-data; name="${field}"; filename="a.pdf"\r\n\r\n`];
      for (let i = 0; i < 20; i++) pieces.push('A'.repeat(60_000));
      return new ReadableStream({
        async pull(c) {
          const next = pieces.shift();
          if (next === undefined) return c.close();
          await new Promise((r) => setTimeout(r, 5));
          c.enqueue(new TextEncoder().encode(next));
        },
      });
    };
    for (const [path, field] of [
      [`${session}/bundle`, 'pdf'],
      ['/api/v2/bundles/', 'files'],
    ] as const) {
      const cut = await srv.call(path, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
        body: streamed(field),
        duplex: 'half',
      } as RequestInit);
      expect([path, cut.status]).toEqual([path, 400]);
      expect(await cut.text()).toMatch(/ends inside a file part/);
    }
  });

  it('a repeated include parameter is not a 500', async () => {
    srv = await startServer();
    const res = await srv.call('/api/v2/bundles/nosuchbundle/?include=events&include=data');
    expect(res.status).toBe(404);
  });
});
