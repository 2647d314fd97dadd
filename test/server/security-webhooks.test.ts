// Item 2: webhook deliveries obey the one outbound-address policy of esign serve, and a delivery
// record keeps the status and esign's own reason, never the receiver's reply.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../src/local/net/addressPolicy.js';
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

async function hookAndTrigger(s: SecureServer, url: string) {
  const created = await s.call('/api/v2/webhooks/', { method: 'POST', json: { name: 'probe', url, event_types: ['bundle_sent'], enabled: true } });
  expect(created.status, await created.clone().text()).toBe(201);
  const trig = await s.call('/sandbox/webhooks/trigger/', { method: 'POST', json: { event_type: 'bundle_sent' } });
  expect(trig.status).toBe(201);
  const [event] = (await (await s.call('/api/v2/webhooks/events/')).json()) as { deliveries: { status: number; message: string }[] }[];
  return event!.deliveries;
}

describe('the outbound-address policy on webhook deliveries (esign serve)', () => {
  it.each([
    ['loopback', (p: number) => `http://127.0.0.1:${p}/`],
    ['localhost by name', (p: number) => `http://localhost:${p}/`],
    ['IPv4-mapped', (p: number) => `http://[::ffff:127.0.0.1]:${p}/`],
    ['the sandbox trigger of the server itself', (_p: number) => 'SELF'],
  ])('refuses %s: nothing is sent, the record says why in its own words', async (_what, url) => {
    srv = await startServer();
    const target = url(internalPort) === 'SELF' ? `${srv.origin}/sandbox/webhooks/trigger/` : url(internalPort);
    const deliveries = await hookAndTrigger(srv, target);
    expect(hits).toBe(0);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ status: 0, message: expect.stringMatching(/^Refused: the address is private/) });
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

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true], ['10.1.2.3', true], ['169.254.169.254', true], ['0.0.0.0', true], ['::1', true], ['::', true],
    ['::ffff:127.0.0.1', true], ['::ffff:7f00:1', true], ['[::127.0.0.1]', true], ['::7f00:1', true],
    ['64:ff9b::7f00:1', true], ['64:ff9b::127.0.0.1', true], ['64:ff9b::a9fe:a9fe', true], ['64:ff9b:1::1', true],
    ['2002:7f00:1::1', true], ['fd12::1', true], ['fe80::1%eth0', true], ['ff02::1', true], ['2001:db8::1', true],
    ['93.184.216.34', false], ['::ffff:8.8.8.8', false], ['64:ff9b::808:808', false], ['2606:4700::1111', false], ['2002:808:808::1', false],
  ])('%s → %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
