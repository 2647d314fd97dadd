// Issue 24 items 1 and 2: every route decides whether the caller may send a body before reading
// it, and the pages' uploads are bounded while they arrive (per file, all files, per field, all
// fields), refused long before a hostile body is all in.
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withField } from '../engine/support.js';
import { bundleRequest } from '../helpers.js';
import { type SecureServer, startServer } from './securityServer.js';

let srv: SecureServer;
beforeAll(async () => {
  // With every optional part mounted: the support console too.
  srv = await startServer({ console: {} });
});
afterAll(async () => srv.close());

const BODY_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** Every [method, path] the server routes that may take a body, from its own route tree. */
function bodyRoutes(tree: string): [string, string][] {
  const out: [string, string][] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+) \(([A-Z, ]+)\)$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    if (stack.join('').includes('|')) continue;
    const path = `${stack.join('').replace(/:[a-zA-Z]+/g, 'nope')}${stack.join('').startsWith('/api/') ? '/' : ''}`;
    for (const method of m[3]!.split(', ')) if (BODY_METHODS.includes(method)) out.push([method, path]);
  }
  return out;
}

/** Sends the head of a request declaring `length` bytes, then a trickle; resolves with the status once answered. */
function answerBeforeBody(
  port: number,
  method: string,
  path: string,
  type: string,
  length = 60 * 1024 * 1024,
  ms = 3000,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const s: Socket = connect({ host: '127.0.0.1', port });
    let got = '';
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`${method} ${path} (${type}): no answer within ${ms} ms while its body was unsent`));
    }, ms);
    s.on('error', () => {});
    s.on('data', (d) => {
      got += d.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(got);
      if (status) {
        clearTimeout(timer);
        s.destroy();
        resolve(Number(status[1]));
      }
    });
    s.once('connect', () => {
      s.write(
        `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n{"a":"`,
      );
    });
  });
}

describe('a body is read only when the caller may send it', () => {
  it('answers every body route, and unknown ones, without reading a 60 MB body from a caller with no key or session', async () => {
    const routes = bodyRoutes(srv.app.printRoutes({ commonPrefix: false }));
    expect(routes.length).toBeGreaterThan(100);
    expect(routes).toContainEqual(['POST', '/sign/session/nope/sign']);
    routes.push(['POST', '/nowhere/at/all'], ['PUT', '/api/v2/nowhere/']);
    const types = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'];
    for (const [method, path] of routes)
      for (const type of types) {
        const status = await answerBeforeBody(srv.port, method, path, type);
        expect(status, `${method} ${path} ${type}`).toBeGreaterThanOrEqual(400);
      }
  }, 60_000);

  it("a key holder's body sent with a method the path does not allow is a 405 before it is read", async () => {
    const s: Socket = connect({ host: '127.0.0.1', port: srv.port });
    const answer = new Promise<string>((r) => s.once('data', (d) => r(d.toString())));
    s.write(
      `PUT /api/v2/bundles/ HTTP/1.1\r\nHost: x\r\nAuthorization: Token ${srv.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{"label":"`,
    );
    expect(await answer).toMatch(/^HTTP\/1\.1 405[\s\S]*allow: GET, POST/i);
    s.destroy();
  });
});

/** Streams `chunks` as the body until the server answers; the status and how much was sent by then. */
async function streamUntilAnswered(
  path: string,
  type: string,
  chunks: Iterable<Buffer>,
): Promise<{ status: number; sentMb: number; body: string }> {
  const s: Socket = connect({ host: '127.0.0.1', port: srv.port });
  s.on('error', () => {});
  await new Promise((r) => s.once('connect', r));
  let got = '';
  let answered = false;
  const done = new Promise<void>((r) => {
    s.on('data', (d) => {
      got += d.toString('latin1');
      answered = true;
      r();
    });
    s.once('close', () => r());
  });
  s.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked\r\n\r\n`);
  let sent = 0;
  for (const c of chunks) {
    if (answered || s.destroyed) break;
    sent += c.length;
    s.write(`${c.length.toString(16)}\r\n`);
    s.write(c);
    if (!s.write('\r\n')) await Promise.race([new Promise((r) => s.once('drain', r)), done]);
  }
  if (!answered) s.write('0\r\n\r\n');
  await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))]);
  // The answer may come in several packets: give it a moment to be whole.
  await new Promise((r) => setTimeout(r, 50));
  s.destroy();
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0), sentMb: sent / 1024 / 1024, body: got };
}

const B = 'gatesboundary';
const field = (name: string, value: string | Buffer) =>
  Buffer.concat([
    Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
    Buffer.from(value),
    Buffer.from('\r\n'),
  ]);
function* file(name: string, filename: string, mb: number): Generator<Buffer> {
  yield Buffer.from(
    `--${B}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const chunk = Buffer.alloc(1024 * 1024, 0x41);
  for (let i = 0; i < mb; i++) yield chunk;
  yield Buffer.from('\r\n');
}
const MULTIPART = `multipart/form-data; boundary=${B}`;

const EMBED = { packets: [{ key: 'ada', name: 'Ada', email: 'ada@example.com', deliver_via: 'embed' }] };

async function signingSession(request = bundleRequest(EMBED)): Promise<string> {
  const b = await srv.engine.createBundle(request);
  const { url } = await srv.engine.createEmbedUrl(b.packets[0]!.id);
  const html = await (await fetch(`${srv.origin}${new URL(url).pathname}`)).text();
  return /action="\/sign\/session\/([^/"]+)\/sign"/.exec(html)![1]!;
}

async function preparationSession(): Promise<string> {
  const { url } = await srv.engine.createBundlePreparationSession({ upload_pdf: true });
  const html = await (await fetch(`${srv.origin}${new URL(url).pathname}`)).text();
  return /action="\/prepare\/session\/([^/"]+)\/bundle"/.exec(html)![1]!;
}

describe('page uploads are bounded while they arrive', () => {
  it('refuses a signing post of 20 attachments of 9 MB at the 50 MB total, long before the 180 MB are in', async () => {
    const session = await signingSession();
    function* body() {
      for (let i = 0; i < 20; i++) yield* file('file:att', `a${i}.pdf`, 9);
      yield Buffer.from(`--${B}--\r\n`);
    }
    const r = await streamUntilAnswered(`/sign/session/${session}/sign`, MULTIPART, body());
    expect(r.status, r.body.slice(-300)).toBe(413);
    expect(r.body).toContain('total at most 50 MB');
    expect(r.sentMb).toBeLessThan(80);
  });

  it('refuses a signing post of 400 fields of 512 KB at the 2 MB total of its fields', async () => {
    const session = await signingSession();
    function* body() {
      for (let i = 0; i < 400; i++) yield field(`value:f${i}`, 'x'.repeat(512 * 1024));
      yield Buffer.from(`--${B}--\r\n`);
    }
    const r = await streamUntilAnswered(`/sign/session/${session}/sign`, MULTIPART, body());
    expect(r.status, r.body.slice(-300)).toBe(413);
    expect(r.sentMb).toBeLessThan(20);
  });

  it('refuses a preparation post of 2,000 fields of 512 KB, and one whose PDF passes 50 MB, as they arrive', async () => {
    function* fields() {
      for (let i = 0; i < 2000; i++) yield field('signer_name', 'x'.repeat(512 * 1024));
      yield Buffer.from(`--${B}--\r\n`);
    }
    const a = await streamUntilAnswered(`/prepare/session/${await preparationSession()}/bundle`, MULTIPART, fields());
    expect(a.status).toBe(413);
    expect(a.sentMb).toBeLessThan(20);
    function* files() {
      for (let i = 0; i < 5; i++) yield* file('extra', `x${i}.bin`, 40);
      yield Buffer.from(`--${B}--\r\n`);
    }
    const b = await streamUntilAnswered(`/prepare/session/${await preparationSession()}/bundle`, MULTIPART, files());
    expect(b.status).toBe(413);
    expect(b.sentMb).toBeLessThan(80);
    // One file past its own limit is refused as it passes it, not read to its end.
    const c = await streamUntilAnswered(
      `/prepare/session/${await preparationSession()}/bundle`,
      MULTIPART,
      file('pdf', 'big.pdf', 200),
    );
    expect(c.status).toBe(413);
    expect(c.body).toContain('big.pdf');
    expect(c.sentMb).toBeLessThan(150);
  });

  it('still takes a real signing post with an attachment, and a decline with a reason', async () => {
    const session = await signingSession({
      ...withField({ key: 'f', kind: 'att', required: true, v_attachment_types: ['pdf'] }),
      ...EMBED,
    });
    const form = new FormData();
    form.set('file:f', new Blob([readFileSync('fixtures/contract.pdf')]), 'scan.pdf');
    const signed = await fetch(`${srv.origin}/sign/session/${session}/sign`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    expect(signed.status, await signed.text()).toBe(200);
    const [bundle] = (await srv.engine.listBundles({})).items.filter((b) => b.status === 'co');
    expect(bundle, 'the signed Bundle').toBeDefined();
    const other = await signingSession();
    const decline = new FormData();
    decline.set('reason', 'Not mine');
    const declined = await fetch(`${srv.origin}/sign/session/${other}/decline`, { method: 'POST', body: decline });
    expect(declined.status).toBe(200);
    expect(await declined.text()).toContain('You declined');
  });
});
