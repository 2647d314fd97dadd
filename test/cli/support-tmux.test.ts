// Support staff at a real terminal (tmux, 80x24, the built binary): times a person reads in the
// terminal's zone and against the engine's clock, the facts of a Bundle's timeline whole at 80
// columns, the columns a delivery table needs, one word per state, and lists that say they stopped.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { bundleRequest, tempDir } from '../helpers.js';
import { esignLine, skipTmux, useTmux } from './tmux.js';
import { clockIn } from '../timeShown.js';

const data = tempDir('esign-support-tty-');
const { run } = useTmux();
const REASON = 'wrong unit number: the lease names flat 12B but the tenant lives in 12C, please correct it';
let receiver: Server;
let slug = '';
let declined = '';
let sentAt = '';
let eventIds: string[] = [];
let hookId = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    res.writeHead(503).end('down for maintenance');
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const engine = new LocalEngine({ dataDir: data.dir });
  hookId = (
    await engine.createWebhook({
      name: 'crm',
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      event_types: ['bundle_sent', 'packet_declined'],
    })
  ).id;
  const b = await engine.createBundle(
    bundleRequest({
      label: 'Lease 12B',
      packets: [
        { key: 'a', name: 'Dana Reed', email: 'dana@example.com' },
        { key: 'b', name: 'Eli Stone', email: 'eli@example.com' },
      ],
    }),
  );
  slug = b.id;
  declined = b.packets[1]!.id;
  sentAt = (await engine.getBundle(slug)).sent!;
  await engine.declinePacket(declined, REASON);
  await engine.deliverWebhooks();
  eventIds = (await engine.listWebhookEvents({ bundle: slug })).items.map((e) => e.pk);
  await engine.close();
});
afterAll(async () => {
  await new Promise<void>((r) => receiver.close(() => r()));
  data.cleanup();
});

const tty = (args: string, env = '') => run(esignLine(data.dir, env, args));

describe.skipIf(skipTmux)('support staff at an 80-column terminal', () => {
  it("shows log times to the second in the terminal's zone, whole ISO times when piped", async () => {
    for (const zone of ['Asia/Tokyo', 'America/Los_Angeles']) {
      const lines = await tty(`bundle events ${slug}`, `TZ=${zone}`);
      const launched = lines.find((l) => / bl /.test(l))!;
      expect(launched.startsWith(`${clockIn(sentAt, zone)}  bl `), launched).toBe(true);
    }
    const hooks = await tty('webhook events', 'TZ=Asia/Tokyo');
    expect(hooks[0]).toMatch(/^ID +TYPE +TIME +HTTP +OK$/);
    expect(hooks.some((l) => l.includes('…'))).toBe(false);
    const piped = await tty(`bundle events ${slug} | cat`, 'TZ=Asia/Tokyo');
    expect(piped.some((l) => l.includes(sentAt))).toBe(true);
  }, 60_000);

  it("measures relative times against the engine's clock after local clock advance", async () => {
    const before = await tty('bundle list');
    expect(before[1]).toMatch(/ (just now|\dm ago)$/);
    await tty('local clock advance 3d');
    try {
      expect((await tty('bundle list'))[1]).toMatch(/ 3d ago$/);
      expect(await tty(`bundle inspect ${slug} --no-pager`)).toContain('created       3d ago');
    } finally {
      await tty('local clock reset');
    }
  }, 60_000);

  it('bundle inspect gives the decline reason, the failure reason and the event ids whole, on lines of their own', async () => {
    const lines = await tty(`bundle inspect ${slug} --no-pager`);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
    const text = lines.join('\n');
    // The reason, wrapped at spaces: every word of it whole, in order.
    const reason = lines.findIndex((l) => l.trimStart().startsWith('reason: wrong unit number'));
    expect(reason).toBeGreaterThan(0);
    expect(`${lines[reason]!.trim()} ${lines[reason + 1]!.trim()}`).toBe(`reason: ${REASON}`);
    for (const id of eventIds) expect(text).toMatch(new RegExp(`^ +event: ${id}$`, 'm'));
    // The receiver's answer, as it began.
    expect(text).toMatch(/^ +reason: down for maintenance$/m);
    // A note is wrapped at spaces, never mid-word.
    expect(text).toMatch(/^Start one: esign serve \(with the same --data-dir\)\.$/m);
  }, 60_000);

  it('bundle events gives a decline reason whole, under its row, when the row does not fit', async () => {
    const lines = await tty(`bundle events ${slug}`);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
    const row = lines.findIndex((l) => / pd +Signer declined /.test(l));
    expect(row).toBeGreaterThan(0);
    expect(`${lines[row + 1]!.trim()} ${lines[row + 2]!.trim()}`).toBe(REASON);
  }, 60_000);

  it('webhook deliveries keeps type, time, status and success at 80 columns', async () => {
    const lines = await tty('webhook deliveries');
    expect(lines[0]).toMatch(/^EVENT +TYPE +TIME +HTTP +OK$/);
    const row = lines.find((l) => l.startsWith(eventIds[0]!))!;
    expect(row).toMatch(/ (bundle_sent|packet_declined) +(\d\d:\d\d:\d\d|[A-Z][a-z]{2} \d\d \d\d:\d\d) +503 +no$/);
    expect(lines.at(-1)).toBe('(ID, WEBHOOK left out to fit 80 columns; --json or a pipe shows all)');
  }, 60_000);

  it("webhook get tells the webhook's health: share delivered, last failure with the reply, next retry", async () => {
    const text = (await tty(`webhook get ${hookId}`)).join('\n');
    expect(text).toMatch(/^delivered +0% \(0 of 2\)$/m);
    // Wrapped at a space, under its value: the event id whole.
    expect(text).toMatch(
      /^last failure +([A-Z][a-z]{2} \d\d )?\d\d:\d\d:\d\d HTTP 503: down for maintenance( \[event)?\n {14}(\[event )?[0-9a-f-]{36}\]$/m,
    );
    expect(text).toMatch(/^next retry +in \d+[mhd]$/m);
  }, 60_000);

  it('packet get calls a signer who declined Declined, as inspect does', async () => {
    const get = await tty(`packet get ${declined}`);
    expect(get).toContain('status            Declined');
    const inspect = await tty(`bundle inspect ${slug} --no-pager`);
    expect(inspect.find((l) => l.startsWith('Eli Stone'))).toMatch(/ Declined /);
  }, 60_000);

  it('local outbox says when it stops, and takes --limit and --all', async () => {
    const limited = await tty('local outbox --limit 2');
    expect(limited.filter((l) => /^\d\d:\d\d:\d\d /.test(l))).toHaveLength(2);
    expect(limited.join(' ')).toMatch(/The newest 2 of \d+ messages: --limit N for more, --all for every one\./);
    const all = await tty('local outbox --all');
    expect(all.join('\n')).not.toContain('The newest');
    expect(all.filter((l) => /^\d\d:\d\d:\d\d /.test(l)).length).toBeGreaterThan(2);
  }, 60_000);

  it("local outbox keeps each message's kind whole in words at 80 columns, and its long addresses whole", async () => {
    const own = tempDir('esign-outbox-tty-');
    try {
      const engine = new LocalEngine({ dataDir: own.dir });
      const long = 'jane.doe@northwind-legal-and-partners.example.com';
      const b = await engine.createBundle(
        bundleRequest({
          label: 'Master services agreement 2026',
          packets: [
            { key: 'j', name: 'Jane Doe', email: long },
            { key: 'n', name: 'Nguyễn Thị Minh Khai', email: 'khai@example.com' },
          ],
        }),
      );
      await engine.remindPacket(b.packets[1]!.id);
      await engine.close();
      const lines = await run(esignLine(own.dir, '', 'local outbox --no-pager'));
      for (const l of lines) expect([...l].length, l).toBeLessThanOrEqual(80);
      expect(lines[0]).toMatch(/^TIME +KIND +TO +SUBJECT +BUNDLE$/);
      const rows = lines.filter((l) => /^\d\d:\d\d:\d\d /.test(l));
      expect(rows).toHaveLength(3);
      expect(rows.filter((l) => /^\S+ {2}signing request {2}/.test(l))).toHaveLength(2);
      expect(rows.filter((l) => /^\S+ {2}reminder {9}khai@example\.com /.test(l))).toHaveLength(1);
      for (const r of rows) expect(r.endsWith(`  ${b.id}`), r).toBe(true);
      expect(lines).toContain(`    to: ${long}`);
      expect(lines.at(-1)).toBe('(CHANNEL left out to fit 80 columns; --json or a pipe shows all)');
      // Piped: the codes and every column.
      const piped = await run(esignLine(own.dir, '', "local outbox | tr '\\t' '|'"));
      expect(piped.filter((l) => l.includes('|signing_request|email|'))).toHaveLength(2);
    } finally {
      own.cleanup();
    }
  }, 60_000);
});
