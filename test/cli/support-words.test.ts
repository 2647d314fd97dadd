// Issue 46's smaller items, in-process on the local engine: a list cut short says how many it shows
// of how many and how to see the rest; a reminder and a webhook resend say in words what they did;
// a refused reminder gives its times in the terminal's zone (as sent when piped).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleRequest } from '../helpers.js';
import { shownIn } from '../timeShown.js';
import { type CliBackend, localBackend } from './backends.js';
import { esignIn } from './inProcess.js';

let b: CliBackend;
let receiver: Server;
beforeAll(async () => {
  b = await localBackend();
  receiver = createServer((req, res) => {
    req.resume();
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await new Promise<void>((r) => receiver.close(() => r()));
  await b.close();
});
const esign = (args: string[], tty = false) => esignIn(args, { env: { ...b.env, CI: '1' }, tty });

/** A note as one line (a terminal's notes are wrapped at its width). */
const flat = (s: string) => s.replace(/\s+/g, ' ');

describe('smaller support items', () => {
  it('a list cut short says how many of how many, and how to see the rest', async () => {
    for (let i = 0; i < 3; i++) await b.engine.createBundle(bundleRequest({ label: `Cut ${i}` }));
    const limited = await esign(['bundle', 'list', '--limit', '2'], true);
    expect(flat(limited.stderr)).toContain('Showing 2 of 3: --limit N or --all for more.');
    const paged = await esign(['bundle', 'list', '--per-page', '2'], true);
    expect(flat(paged.stderr)).toContain(
      'Showing 2 of 3 (page 1 of 2): --page N for another page, --limit N or --all for more.',
    );
    expect((await esign(['bundle', 'list', '--all'], true)).stderr).not.toContain('Showing');
    expect((await esign(['bundle', 'list', '--limit', '2'])).stderr).toBe('');
  });

  it('a reminder says where it went; one refused within the hour says when the next may go, in local time', async () => {
    const bundle = await b.engine.createBundle(bundleRequest());
    const ada = bundle.packets[0]!.id;
    const sent = await esign(['packet', 'remind', ada], true);
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(flat(sent.stderr)).toContain('A reminder went to Ada Lovelace by email to ada@example.com.');
    // Piped, the message is as the backend sent it, with ISO times.
    const piped = await esign(['packet', 'remind', ada]);
    expect(piped.exitCode).toBe(3);
    const [, last, next] = /the last one went at (\S+), the next can go after (\S+)\.$/m.exec(piped.stderr)!;
    expect(Date.parse(next!) - Date.parse(last!)).toBe(3600_000);
    const early = await esign(['packet', 'remind', ada], true);
    expect(early.exitCode).toBe(3);
    expect(early.stderr).toMatch(
      new RegExp(
        `^esign: A reminder can be sent once per hour; the last one went at ${shownIn(last!)}, \\S.*, the next can go after ${shownIn(next!)}, \\S`,
      ),
    );
    expect(early.stderr).not.toContain(next!);
  });

  it('a webhook resend says it was delivered, and what the receiver answered', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await b.engine.createWebhook({ name: 'ok', url, event_types: ['bundle_sent'] });
    const [event] = await b.engine.triggerWebhookEvent('bundle_sent');
    const r = await esign(['webhook', 'resend', event!.pk], true);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(flat(r.stderr)).toContain(`Event ${event!.pk} was delivered again: the receiver answered HTTP 200: ok.`);
  });

  it('an ended Bundle says it will have no signed files, not that they are not ready yet', async () => {
    const bundle = await b.engine.createBundle(bundleRequest({ label: 'Ended' }));
    await b.engine.declinePacket(bundle.packets[0]!.id, 'not mine');
    const r = await esign(['bundle', 'inspect', bundle.id, '--no-pager'], true);
    expect(flat(r.stdout)).toContain(
      'No signed files: the Bundle is Declined, so it will not be completed, and no signed PDF or Certificate of Evidence will be made.',
    );
    expect(flat(r.stdout)).toMatch(/declined +Bob Example: not mine|declined +Ada Lovelace: not mine/);
    // The header agrees with the Files section, for a cancelled Bundle too; piped keeps the code.
    expect(r.stdout).toMatch(/^signed files +Will not be made \(Declined\)$/m);
    expect(r.stdout).not.toContain('Not yet made');
    const cancelled = await b.engine.createBundle(bundleRequest({ label: 'Called off' }));
    await b.engine.cancelBundle(cancelled.id);
    expect((await esign(['bundle', 'inspect', cancelled.id, '--no-pager'], true)).stdout).toMatch(
      /^signed files +Will not be made \(Cancelled\)$/m,
    );
    expect((await esign(['bundle', 'get', cancelled.id], true)).stdout).toMatch(
      /^doc_status +Will not be made \(Cancelled\)$/m,
    );
    expect((await esign(['bundle', 'inspect', cancelled.id])).stdout).toMatch(/^signed files\tno$/m);
  });
});
