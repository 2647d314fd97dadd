// Issue 36 item 5: the console door of esign serve as strict as the API. Sign-in attempts are
// limited per address and per key prefix (429 with Retry-After); /console/ answers the server's own
// names and the ones given (421 for any other Host: a DNS-rebinding page cannot sign in); one
// session opens a bounded number of live streams; bidi overrides and control characters from
// outside are shown as visible marks on every page, never applied. All fail on fbda499.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleRequest } from '../helpers.js';
import { type SecureServer, startServer } from './securityServer.js';

let srv: SecureServer;
beforeAll(async () => {
  srv = await startServer({ console: { hosts: ['sign.example.com'] } });
});
afterAll(async () => srv.close());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request to the server from `localAddress` (all of 127/8 is loopback), with any Host header. */
function send(
  method: string,
  path: string,
  o: { host?: string; body?: string; cookie?: string; localAddress?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: srv.port,
        method,
        path,
        localAddress: o.localAddress,
        headers: {
          host: o.host ?? `127.0.0.1:${srv.port}`,
          ...(o.body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...(o.cookie ? { cookie: o.cookie } : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

const signIn = (key: string, o: { host?: string; localAddress?: string } = {}) =>
  send('POST', '/console/login', { ...o, body: `key=${encodeURIComponent(key)}` });
const cookieOf = (a: Answer) => String(a.headers['set-cookie']).split(';')[0]!;

describe('the console door of esign serve', () => {
  it('limits failed sign-ins per address: 429 with Retry-After, whatever is typed then', async () => {
    const from = { localAddress: '127.36.0.1' };
    for (let i = 0; i < 10; i++) expect((await signIn(`esk_wrong${i}xxxxxxxxxxxx`, from)).status).toBe(401);
    const refused = await signIn('esk_wrong-again', from);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toContain('Too many failed sign-ins');
    // Even the right key waits: nothing is tried while the address is held back.
    expect((await signIn(srv.key, from)).status).toBe(429);
    // Another address signs in.
    expect((await signIn(srv.key, { localAddress: '127.36.0.2' })).status).toBe(303);
  });

  it('limits failed sign-ins per key prefix, from any number of addresses', async () => {
    const prefix = 'esk_Zz9Yy8';
    for (let i = 0; i < 5; i++)
      expect((await signIn(`${prefix}${i}tail`, { localAddress: `127.37.0.${i + 1}` })).status).toBe(401);
    const refused = await signIn(`${prefix}other`, { localAddress: '127.37.0.99' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(srv.key, { localAddress: '127.37.0.100' })).status).toBe(303);
  });

  it('answers only its own names and the ones given: another Host is a 421, and cannot sign in', async () => {
    expect((await send('GET', '/console/login', { host: 'evil.example' })).status).toBe(421);
    expect((await signIn(srv.key, { host: 'evil.example', localAddress: '127.38.0.1' })).status).toBe(421);
    expect((await signIn(srv.key, { host: `evil.example:${srv.port}`, localAddress: '127.38.0.1' })).status).toBe(421);
    for (const host of [`127.0.0.1:${srv.port}`, `localhost:${srv.port}`, 'sign.example.com', 'sign.example.com:8443'])
      expect((await send('GET', '/console/login', { host })).status, host).toBe(200);
    // The API door is not the console's: it never looks at Host.
    expect((await send('GET', '/api/v2/verify/', { host: 'evil.example' })).status).not.toBe(421);
  });

  it('lets one session open 8 live streams; the 9th is a 429, and another session still gets one', async () => {
    const b = await srv.engine.createBundle(bundleRequest());
    const cookie = cookieOf(await signIn(srv.key, { localAddress: '127.39.0.1' }));
    const streams: Socket[] = [];
    const open = (c: string) =>
      new Promise<string>((resolve) => {
        const s = connect({ host: '127.0.0.1', port: srv.port });
        streams.push(s);
        s.on('error', () => {});
        s.once('data', (d: Buffer) => resolve(d.toString('latin1').split('\r\n')[0]!));
        s.write(`GET /console/bundles/${b.id}/live HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nCookie: ${c}\r\n\r\n`);
      });
    try {
      const first = await Promise.all(Array.from({ length: 8 }, () => open(cookie)));
      expect(first.every((l) => l.startsWith('HTTP/1.1 200'))).toBe(true);
      expect(await open(cookie)).toMatch(/^HTTP\/1\.1 429/);
      const other = cookieOf(await signIn(srv.key, { localAddress: '127.39.0.2' }));
      expect(await open(other)).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      for (const s of streams) s.destroy();
    }
  });

  it('shows bidi overrides and control characters in a signer name as marks, on the signing page and the console', async () => {
    const name = 'Ada \u202Eevil\u202C \x07bell \x1b[31mred \u2066iso\u2069';
    const b = await srv.engine.createBundle(
      bundleRequest({ packets: [{ key: 'a', name, email: 'ada@example.com', deliver_via: 'embed' }] }),
    );
    const { url } = await srv.engine.createEmbedUrl(b.packets[0]!.id);
    const signing = await (await fetch(`${srv.origin}${new URL(url).pathname}`)).text();
    const cookie = cookieOf(await signIn(srv.key, { localAddress: '127.40.0.1' }));
    const consolePage = (await send('GET', `/console/bundles/${b.id}`, { cookie })).body;
    for (const html of [signing, consolePage]) {
      expect(html).toContain('Ada ⟨U+202E⟩evil⟨U+202C⟩ ␇bell ␛[31mred ⟨U+2066⟩iso⟨U+2069⟩');
      expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069\x00-\x08\x1b\x7f]/);
    }
  });
});
