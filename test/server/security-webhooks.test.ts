// Item 2: webhook deliveries obey the one outbound-address policy of esign serve, and a delivery
// record keeps the status and esign's own reason, never the receiver's reply. Issue 24 item 10: a
// URL the policy refuses is refused when it is set (create, PUT, PATCH), naming `url`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isLoopbackAddress,
  isPrivateAddress,
  listensOnLoopbackOnly,
  refusedHost,
} from '../../src/local/net/addressPolicy.js';
import { type SecureServer, startServer } from './securityServer.js';

const SECRET_REPLY = 'INTERNAL-ONLY admin-token=hunter2';
let internal: Server;
let hits = 0;
let internalPort = 0;
let srv: SecureServer | undefined;

beforeEach(async () => {
  hits = 0;
  internal = createServer((req, res) => {
    hits++;
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' }).end(SECRET_REPLY);
  });
  await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));
  internalPort = (internal.address() as AddressInfo).port;
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  internal.closeAllConnections();
  await new Promise((r) => internal.close(r));
});

/** A webhook made while private addresses were allowed (`private`), then one event triggered under the policy as it is. */
async function hookAndTrigger(s: SecureServer, url: string, madeWhilePrivateAllowed = false) {
  if (madeWhilePrivateAllowed) s.engine.account.update({ allow_private_urls: true });
  const created = await s.call('/api/v2/webhooks/', {
    method: 'POST',
    json: { name: 'probe', url, event_types: ['bundle_sent'], enabled: true },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  s.engine.account.update({ allow_private_urls: false });
  const trig = await s.call('/sandbox/webhooks/trigger/', { method: 'POST', json: { event_type: 'bundle_sent' } });
  expect(trig.status).toBe(201);
  const [event] = (await (await s.call('/api/v2/webhooks/events/')).json()) as {
    deliveries: { status: number; message: string }[];
  }[];
  return event!.deliveries;
}

describe('the outbound-address policy on webhook deliveries (esign serve)', () => {
  it.each([
    ['loopback', (p: number) => `http://127.0.0.1:${p}/`],
    ['localhost by name', (p: number) => `http://localhost:${p}/`],
    ['IPv4-mapped', (p: number) => `http://[::ffff:127.0.0.1]:${p}/`],
    ['the sandbox trigger of the server itself', (_p: number) => 'SELF'],
  ])('refuses %s at delivery too: nothing is sent, the record says why in its own words', async (_what, url) => {
    srv = await startServer();
    const target = url(internalPort) === 'SELF' ? `${srv.origin}/sandbox/webhooks/trigger/` : url(internalPort);
    const deliveries = await hookAndTrigger(srv, target, true);
    expect(hits).toBe(0);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      status: 0,
      message: expect.stringMatching(/^Refused: the address is private/),
    });
    expect(JSON.stringify(deliveries)).not.toContain('127.0.0.1');
  });

  it('stores only the status of a delivery, never the reply, when private addresses are allowed', async () => {
    srv = await startServer({ guardUrls: false });
    const deliveries = await hookAndTrigger(srv, `http://127.0.0.1:${internalPort}/`);
    expect(hits).toBe(1);
    expect(deliveries[0]).toMatchObject({ status: 200, message: 'HTTP 200' });
    expect(JSON.stringify(await (await srv.call('/api/v2/webhooks/events/')).json())).not.toContain('INTERNAL-ONLY');
  });
});

describe('webhook URLs checked when they are set (esign serve)', () => {
  const SPELLINGS = [
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://localhost:8080/h',
    'http://LOCALHOST./h',
    'http://api.localhost/h',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://0.0.0.0/',
    'http://10.0.0.5/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://100.64.0.1/',
    'http://[64:ff9b::7f00:1]/',
  ];

  it('refuses every private spelling on create, PUT and PATCH with a 400 naming url and how to allow it', async () => {
    srv = await startServer();
    const s = srv;
    for (const url of SPELLINGS) {
      const res = await s.call('/api/v2/webhooks/', {
        method: 'POST',
        json: { name: 'p', url, event_types: ['bundle_sent'] },
      });
      const body = (await res.json()) as { code: string; errors: { field: string; message: string }[] };
      expect(res.status, url).toBe(400);
      expect(body.code).toBe('invalid');
      expect(body.errors[0]).toMatchObject({ field: 'url', message: expect.stringContaining('--allow-private-urls') });
    }
    expect(((await (await s.call('/api/v2/webhooks/')).json()) as unknown[]).length).toBe(0);
    // A public address is taken, and cannot be changed into a private one.
    const made = await s.call('/api/v2/webhooks/', {
      method: 'POST',
      json: { name: 'p', url: 'https://93.184.216.34/hook', event_types: ['bundle_sent'] },
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const patched = await s.call(`/api/v2/webhooks/${id}/`, { method: 'PATCH', json: { url: 'http://[::1]:9/' } });
    expect(patched.status).toBe(400);
    const put = await s.call(`/api/v2/webhooks/${id}/`, {
      method: 'PUT',
      json: { name: 'p', url: 'http://127.0.0.1:9/', event_types: ['bundle_sent'] },
    });
    expect(put.status).toBe(400);
    expect(((await (await s.call(`/api/v2/webhooks/${id}/`)).json()) as { url: string }).url).toBe(
      'https://93.184.216.34/hook',
    );
  });

  it("takes private URLs where they are allowed: the account setting, or the CLI's own engine", async () => {
    srv = await startServer();
    srv.engine.account.update({ allow_private_urls: true });
    const res = await srv.call('/api/v2/webhooks/', {
      method: 'POST',
      json: { name: 'p', url: 'http://127.0.0.1:9/', event_types: ['bundle_sent'] },
    });
    expect(res.status).toBe(201);
    await srv.close();
    srv = await startServer({ guardUrls: false });
    const local = await srv.call('/api/v2/webhooks/', {
      method: 'POST',
      json: { name: 'p', url: 'http://localhost:9/', event_types: ['bundle_sent'] },
    });
    expect(local.status).toBe(201);
  });
});

describe('a server listening on loopback only (esign serve by default): loopback receivers allowed', () => {
  const hook = (s: SecureServer, url: string) =>
    s.call('/api/v2/webhooks/', { method: 'POST', json: { name: 'dev', url, event_types: ['bundle_sent'] } });

  it('takes a receiver on 127.0.0.1, localhost or ::1 and delivers to it; other private ranges still refused', async () => {
    srv = await startServer({ loopbackUrls: true });
    for (const url of ['http://localhost:9/h', 'http://[::1]:9/h', 'http://[::ffff:127.0.0.1]:9/h', 'http://127.1:9/'])
      expect((await hook(srv, url)).status, url).toBe(201);
    for (const url of [
      'http://10.0.0.5/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest',
      'http://[fd00::1]/',
    ]) {
      const res = await hook(srv, url);
      expect(res.status, url).toBe(400);
      expect(((await res.json()) as { errors: { field: string }[] }).errors[0]!.field).toBe('url');
    }
    // Delivered, and (the caller being on this machine already) the reply's start is kept as usual.
    const made = await hook(srv, `http://127.0.0.1:${internalPort}/hook`);
    expect(made.status).toBe(201);
    expect(
      (await srv.call('/sandbox/webhooks/trigger/', { method: 'POST', json: { event_type: 'bundle_sent' } })).status,
    ).toBe(201);
    const events = (await (await srv.call('/api/v2/webhooks/events/')).json()) as {
      deliveries: { status: number }[];
    }[];
    expect(hits).toBeGreaterThanOrEqual(1);
    expect(events.flatMap((e) => e.deliveries.map((d) => d.status))).toContain(200);
  });

  it('the policy: loopback let through only with the setting, and only loopback', async () => {
    const serve = { publicOnly: true, loopback: true };
    expect(await refusedHost('http://localhost:3000/hook', serve)).toBeUndefined();
    expect(await refusedHost('http://127.0.0.1:3000/hook', serve)).toBeUndefined();
    expect(await refusedHost('http://10.1.2.3/hook', serve)).toBe('10.1.2.3');
    expect(await refusedHost('http://0.0.0.0:3000/hook', serve)).toBe('0.0.0.0');
    expect(await refusedHost('http://localhost:3000/hook', { publicOnly: true })).toBe('localhost');
    expect(await refusedHost('http://127.0.0.1:3000/hook', { publicOnly: true })).toBe('127.0.0.1');
  });

  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['10.0.0.1', false],
    ['fe80::1', false],
    ['93.184.216.34', false],
  ])('isLoopbackAddress(%s) → %s', (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected);
  });

  it('which listening addresses are loopback only', () => {
    expect(['127.0.0.1', 'localhost', '::1', '[::1]'].map(listensOnLoopbackOnly)).toEqual([true, true, true, true]);
    expect(['0.0.0.0', '::', '192.168.1.10', 'example.com'].map(listensOnLoopbackOnly)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['169.254.169.254', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['::', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['[::127.0.0.1]', true],
    ['::7f00:1', true],
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::127.0.0.1', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['64:ff9b:1::1', true],
    ['2002:7f00:1::1', true],
    ['fd12::1', true],
    ['fe80::1%eth0', true],
    ['ff02::1', true],
    ['2001:db8::1', true],
    ['93.184.216.34', false],
    ['::ffff:8.8.8.8', false],
    ['64:ff9b::808:808', false],
    ['2606:4700::1111', false],
    ['2002:808:808::1', false],
  ])('%s → %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
