// bundle wait / bundle inspect / the support filters, run in-process through the CLI, on the local
// engine (same data directory, another connection) and on the remote adapter to esign serve.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/service/types.js';
import { bundleRequest, withRemoteServer } from '../helpers.js';
import { type CliBackend, type Engine, localBackend, serveBackend } from './backends.js';
import { esignIn } from './inProcess.js';

// A generous limit: these waits are paced by their backoff, not by the quota (tested on its own below).
const BACKENDS: [string, () => Promise<CliBackend>][] = [
  ['local engine', localBackend],
  ['esign serve', () => serveBackend({ rateLimits: { limit: 100_000, windowSeconds: 3600 } }, { keyName: 'wait' })],
];

async function sentBundle(engine: Engine, over: Record<string, unknown> = {}): Promise<Bundle> {
  const b = await engine.createBundle(bundleRequest(over));
  await engine.settle();
  return engine.getBundle(b.id);
}

const later = (ms: number, fn: () => Promise<unknown>) => new Promise((r) => setTimeout(r, ms)).then(fn);

/** Polling a remote server starts at 50 ms steps instead of 1 s: these tests wait for events, not for the backoff. */
const timing = { waitFirstStepMs: 50 };

describe.each(BACKENDS)('bundle wait on %s', (_name, make) => {
  let be: CliBackend;
  beforeAll(async () => {
    be = await make();
  });
  afterAll(() => be.close());
  const esign = (args: string[]) => esignIn(args, { env: be.env, timing });

  it('returns at once when the Bundle is already sent (--until sent)', async () => {
    const b = await sentBundle(be.engine);
    const r = await esign(['bundle', 'wait', b.id, '--until', 'sent', '--timeout', '5s']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${b.id}\tse`);
  });

  it('reaches started when a signer opens it', async () => {
    const b = await sentBundle(be.engine);
    const [r] = await Promise.all([
      esign(['bundle', 'wait', b.id, '--until', 'started', '--timeout', '20s']),
      later(300, () => be.engine.viewPacket(b.packets[0].id)),
    ]);
    expect(r.exitCode).toBe(0);
  });

  it('waits for complete and for docs-ready on several Bundles, printing the final Bundles with --json', async () => {
    const a = await sentBundle(be.engine);
    const c = await sentBundle(be.engine);
    const signAll = async (x: Bundle) => {
      for (const p of x.packets) await be.engine.signPacket(p.id, {});
      await be.engine.settle();
    };
    const [r] = await Promise.all([
      esign(['--json', 'bundle', 'wait', a.id, c.id, '--until', 'docs-ready', '--timeout', '30s']),
      later(200, () => signAll(a)).then(() => later(300, () => signAll(c))),
    ]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout) as Bundle[];
    expect(out.map((x) => [x.id, x.status, x.doc_status])).toEqual([
      [a.id, 'co', 'fi'],
      [c.id, 'co', 'fi'],
    ]);
  });

  it('exits 10 on timeout, naming where each Bundle still is', async () => {
    const b = await sentBundle(be.engine);
    const started = Date.now();
    const r = await esign(['bundle', 'wait', b.id, '--timeout', '500ms']);
    expect(r.exitCode).toBe(10);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(r.stderr).toBe(`esign: Timed out after 500 ms waiting for complete: ${b.id} is Sent.`);
  });

  it('exits 13 when a signer declines, naming the state, the signer and the reason', async () => {
    const b = await sentBundle(be.engine);
    const [r] = await Promise.all([
      esign(['bundle', 'wait', b.id, '--timeout', '20s']),
      later(300, () => be.engine.declinePacket(b.packets[1].id, 'wrong amount')),
    ]);
    expect(r.exitCode).toBe(13);
    expect(r.stderr).toMatch(
      new RegExp(`^esign: ${b.id} cannot reach complete: Declined: Bob Example declined at \\S+: wrong amount$`),
    );
  });

  it('reaches ended on a cancel, and exits 13 waiting for sent on a cancelled draft', async () => {
    const b = await sentBundle(be.engine);
    const [r] = await Promise.all([
      esign(['bundle', 'wait', b.id, '--until', 'ended', '--timeout', '20s']),
      later(200, () => be.engine.cancelBundle(b.id)),
    ]);
    expect(r.exitCode).toBe(0);
    const d = await be.engine.createBundle(bundleRequest({ status: 'dr' }));
    await be.engine.cancelBundle(d.id);
    const r2 = await esign(['bundle', 'wait', d.id, '--until', 'sent', '--timeout', '5s']);
    expect(r2.exitCode).toBe(13);
    expect(r2.stderr).toMatch(/cannot reach sent: Cancelled/);
  });

  it("draws a live line per Bundle on a terminal's stderr", async () => {
    const b = await sentBundle(be.engine);
    const [r] = await Promise.all([
      esignIn(['bundle', 'wait', b.id, '--until', 'ended', '--timeout', '20s'], { env: be.env, tty: true, timing }),
      // Late enough for the first look, even on a loaded machine.
      later(1500, () => be.engine.cancelBundle(b.id)),
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^\\r${b.id}  Sent  0/2 signed  \\(waiting for ended, 0 s\\)  Test agreement`));
    expect(r.stderr).toMatch(new RegExp(`\\x1b\\[1A\\r${b.id}  Cancelled  0/2 signed`));
    expect(r.stderr).toMatch(/The Bundle reached ended\.$/);
    expect(r.stdout).toBe('');
  });

  it('is a usage error (2) for an unknown target or duration', async () => {
    expect((await esign(['bundle', 'wait', 'x', '--until', 'signed'])).exitCode).toBe(2);
    expect((await esign(['bundle', 'wait', 'x', '--timeout', 'soon'])).exitCode).toBe(2);
  });

  it('bundle validate exits 14 with the reason when the Bundle cannot be sent', async () => {
    const b = await sentBundle(be.engine);
    const r = await esign(['bundle', 'validate', b.id]);
    expect(r.exitCode).toBe(14);
    expect(r.stdout).toMatch(/^can_send\tfalse$/m);
    expect(r.stderr).toMatch(new RegExp(`^esign: Bundle ${b.id} cannot be sent: The Bundle is .*only drafts`));
  });
});

describe('bundle wait on esign serve with a small rate limit', () => {
  it('keeps its polling to a small share of the limit', async () => {
    const be = await serveBackend({ rateLimits: { limit: 20, windowSeconds: 60 } }, { keyName: 'wait' });
    try {
      const b = await sentBundle(be.engine);
      const r = await esignIn(['bundle', 'wait', b.id, '--timeout', '1s'], { env: be.env, timing });
      expect(r.exitCode).toBe(10);
      expect(r.stderr).not.toMatch(/429|retrying/);
      const rl = (await (
        await fetch(`${be.origin}/api/v2/rate_limit/`, { headers: { authorization: `Token ${be.key}` } })
      ).json()) as { limit: number; remaining: number };
      // The first look and the last one; unpaced backoff (50 ms, 75 ms, ...) would have made 4 or more.
      expect(rl.limit - rl.remaining).toBeLessThanOrEqual(3);
    } finally {
      await be.close();
    }
  });
});

/** A webhook receiver answering from a script: one status per request, then the last one forever. */
async function receiver(statuses: Record<string, number[]>): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const type = (JSON.parse(body) as { event_type: string }).event_type;
      const list = statuses[type] ?? [200];
      res.statusCode = list.length > 1 ? list.shift()! : list[0];
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

describe.each(BACKENDS)('bundle inspect and the support filters on %s', (name, make) => {
  let be: CliBackend;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let b: Bundle;
  let other: Bundle;
  beforeAll(async () => {
    be = await make();
    rx = await receiver({ bundle_sent: [500, 200], packet_declined: [503] });
    await be.engine.createWebhook({ name: 'rx', url: rx.url, event_types: ['bundle_sent', 'packet_declined'] });
    b = await sentBundle(be.engine);
    other = await sentBundle(be.engine, { label: 'Other' });
    await be.engine.deliverWebhooks();
    const sent = (await be.engine.listWebhookEvents({ event_type: 'bundle_sent' })).items.find((e) =>
      e.payload.includes(b.id),
    )!;
    await be.engine.resendWebhookEvent(sent.pk);
    await be.engine.remindPacket(b.packets[0].id);
    await be.engine.declinePacket(b.packets[1].id, 'wrong amount');
    await be.engine.deliverWebhooks();
  });
  afterAll(async () => {
    rx.server.close();
    await be.close();
  });
  const esign = (args: string[], o: { tty?: boolean } = {}) => esignIn(args, { env: be.env, ...o });

  it('shows the decline, the reminder, and the failed and retried deliveries in one timeline with signer names', async () => {
    const r = await esign(['--json', 'bundle', 'inspect', b.id]);
    expect(r.exitCode).toBe(0);
    const x = JSON.parse(r.stdout) as {
      bundle: Bundle;
      signers: { name: string; status: string }[];
      timeline: { source: string; code: string; signer: string | null; what: string }[];
      files: unknown;
      files_note: string | null;
      unavailable: string[];
    };
    expect(x.bundle.id).toBe(b.id);
    expect(x.signers.map((s) => [s.name, s.status])).toEqual([
      ['Ada Lovelace', 'se'],
      ['Bob Example', 'ca'],
    ]);
    const t = x.timeline;
    expect(t.find((e) => e.source === 'event' && e.code === 'pd')).toMatchObject({
      signer: 'Bob Example',
      what: 'Signer declined: wrong amount',
    });
    expect(t.find((e) => e.source === 'event' && e.code === 'pr')).toMatchObject({ signer: 'Ada Lovelace' });
    const sent = t.find((e) => e.source === 'webhook' && e.code === 'bundle_sent')!;
    expect(sent.what).toMatch(/to webhook rx: delivered \(HTTP 200\), 2 attempts/);
    expect(t.filter((e) => e.source === 'attempt' && /bundle_sent/.test(e.what)).map((e) => e.code)).toEqual([
      '500',
      '200',
    ]);
    const declined = t.find((e) => e.source === 'webhook' && e.code === 'packet_declined')!;
    expect(declined).toMatchObject({ signer: 'Bob Example' });
    expect(declined.what).toMatch(/failing \(last HTTP 503\), 1 attempt, next retry \d{4}-/);
    expect(t.some((e) => e.what.includes(other.id))).toBe(false);
    if (name === 'local engine') {
      expect(t.filter((e) => e.source === 'message').map((e) => [e.code, e.signer])).toEqual(
        expect.arrayContaining([
          ['signing_request', 'Ada Lovelace'],
          ['reminder', 'Ada Lovelace'],
        ]),
      );
      expect(x.unavailable).toEqual([]);
    } else {
      expect(t.some((e) => e.source === 'message')).toBe(false);
      expect(x.unavailable).toEqual([expect.stringMatching(/outbox/)]);
    }
    expect(x.files).toBeNull();
    // Declined: it will never have signed files, and says so (not "not ready yet").
    expect(x.files_note).toMatch(/^No signed files: the Bundle is Declined, so it will not be completed/);
    // Ordered by time.
    expect([...t].sort((p, q) => (p as { at?: string }).at!.localeCompare((q as { at?: string }).at!))).toEqual(t);
  });

  it('shows files with sizes and SHA-256 once complete, and says whether links open', async () => {
    const c = await sentBundle(be.engine);
    for (const p of c.packets) await be.engine.signPacket(p.id, {});
    await be.engine.settle();
    const r = await esign(['--json', 'bundle', 'inspect', c.id]);
    const x = JSON.parse(r.stdout) as {
      files: { kind: string; size: number; sha256: string }[];
      links_note: string | null;
    };
    expect(x.files.map((f) => f.kind)).toEqual(expect.arrayContaining(['signed_pdf', 'combined_pdf', 'coe_pdf']));
    for (const f of x.files) {
      expect(f.size).toBeGreaterThan(1000);
      expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    if (name === 'local engine') {
      expect(x.links_note).toMatch(/No esign serve runs for this data directory/);
      const text = await esign(['bundle', 'inspect', c.id]);
      expect(text.stderr).toMatch(/No esign serve runs.*Start one: esign serve/);
    } else expect(x.links_note).toBeNull();
  });

  it('shows states in words on a terminal and codes when piped', async () => {
    const tty = await esign(['bundle', 'inspect', b.id], { tty: true });
    expect(tty.stdout).toMatch(/status\s+Declined/);
    expect(tty.stdout).toMatch(/Bob Example.*Declined/);
    const piped = await esign(['bundle', 'inspect', b.id]);
    expect(piped.stdout).toMatch(/^status\tde$/m);
  });

  it('names signers in bundle events, and bundle get shows states in words on a terminal', async () => {
    const rows = (await esign(['bundle', 'events', b.id])).stdout.split('\n').map((l) => l.split('\t'));
    expect(rows.find((c) => c[1] === 'pd')?.[4]).toBe('Bob Example');
    const tty = await esign(['bundle', 'get', b.id], { tty: true });
    expect(tty.stdout).toMatch(/status\s+Declined/);
    expect(tty.stdout).toMatch(/Bob Example <bob@example.com> email Declined/);
  });

  it('filters webhook events and deliveries by Bundle', async () => {
    const ev = await esign(['--json', 'webhook', 'events', '--bundle', other.id]);
    const events = JSON.parse(ev.stdout) as { payload: string; event_type: string }[];
    expect(events.map((e) => e.event_type)).toEqual(['bundle_sent']);
    expect(events[0].payload).toContain(other.id);
    const dv = await esign(['--json', 'webhook', 'deliveries', '--bundle', b.id]);
    const deliveries = JSON.parse(dv.stdout) as { payload: string; status: number }[];
    expect(deliveries.map((d) => d.status).sort()).toEqual([200, 500, 503]);
    expect(deliveries.every((d) => d.payload.includes(b.id))).toBe(true);
  });

  it("leads from a packet id to its Bundle on either backend (on a remote one, through its signer's Bundles)", async () => {
    const r = await esign(['--json', 'bundle', 'inspect', b.packets[0].id]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { bundle: Bundle }).bundle.id).toBe(b.id);
    const pg = await esign(['packet', 'get', b.packets[0].id]);
    expect(pg.exitCode).toBe(0);
    if (name === 'local engine') expect(pg.stdout).toMatch(new RegExp(`^bundle\\t${b.id}$`, 'm'));
  });
});

describe('esign help states', () => {
  it('explains every Bundle, packet, document and event code', async () => {
    const r = await esignIn(['help', 'states']);
    expect(r.exitCode).toBe(0);
    for (const line of ['de  Declined', 'ra  Reassigned', 'fi  Final', 'pd  Signer declined', 'bk  Bundle completed'])
      expect(r.stdout).toContain(line);
  });
});

describe('webhook events by Bundle on a server without the filter', () => {
  it('keeps only the items whose payload names the Bundle', async () => {
    const event = (pk: string, bundle: string) => ({
      pk,
      webhook: 'w',
      event_type: 'bundle_sent',
      created: '2026-01-01T00:00:00Z',
      status: 200,
      success: true,
      deliveries: [],
      payload: JSON.stringify({ event_id: pk, event_type: 'bundle_sent', payload: { bundle_id: bundle } }),
    });
    // Answers like a server that ignores `bundle`: every event, whatever the query.
    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-blueink-pagination', '1,1,50,3');
      res.end(JSON.stringify([event('e1', 'AAA'), event('e2', 'BBB'), event('e3', 'AAA')]));
    });
    await withRemoteServer(server, async (env) => {
      const r = await esignIn(['webhook', 'events', '--bundle', 'AAA', '-q'], { env });
      expect(r.exitCode).toBe(0);
      expect(r.stdout.split('\n')).toEqual(['e1', 'e3']);
    });
  });
});
