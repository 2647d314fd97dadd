// Answers that are true (issue 48, item 2), over esign serve's /mcp with the SDK's client: a URL
// document's Bundle is reported pending and its later failure is found by bundle_story and
// wait_for_bundles; every tool marked idempotent that changes something answers a repeat the same;
// a Bundle is `id` in every tool; a description names only arguments the tool has; resending leaves
// delivered events out unless asked; a send without the go-ahead makes nothing and says who would
// get what; /mcp takes `Authorization: Bearer`, and answers JSON that is not JSON-RPC with -32600.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalEngine } from '../../src/local/engine.js';
import { buildServer } from '../../src/server/app.js';
import { serverDoors } from '../../src/wiring/doors.js';
import { bundleRequest, CONTRACT_B64, newEngine } from '../helpers.js';
import { type Connected, call, fails, httpClient, ok } from './support.js';

let engine: LocalEngine & { dispose: () => Promise<void> };
let app: FastifyInstance;
let origin: string;
let key: string;
let c: Connected;
let all: Connected;

beforeAll(async () => {
  engine = newEngine();
  key = engine.keys.create('mcp').key;
  app = await buildServer({ service: engine, authenticate: (k) => engine.keys.authenticate(k), doors: serverDoors });
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
  c = await httpClient(origin, key);
  all = await httpClient(origin, key, 'all');
});
afterAll(async () => {
  await c?.client.close();
  await all?.client.close();
  await app?.close();
  await engine?.dispose();
});

const ada = [{ name: 'Ada Lovelace', email: 'ada@example.com' }];

describe('a URL document', () => {
  it('is reported pending, and its failure is found by the same tools', async () => {
    const r = await call(c, 'send_for_signature', {
      signers: ada,
      documents: [{ url: 'http://127.0.0.1:1/nda.pdf' }],
      confirm: true,
    });
    const id = (r.data.bundle as { id: string }).id;
    expect(r.prose).toBe(
      `Made Bundle ${id}, pending: it sends to 1 signer once its documents are fetched and checked. If one cannot be, the Bundle goes Failed instead, with the reason in bundle_story. wait_for_bundles (until: sent) waits for either.`,
    );
    expect(r.prose).not.toMatch(/draft/);
    const waited = await ok(c, 'wait_for_bundles', { ids: [id], until: 'sent', timeout_seconds: 30 });
    expect(waited.outcome).toBe('unreachable');
    expect(JSON.stringify(waited.unreachable)).toMatch(/could not be downloaded/);
    const story = await ok(c, 'bundle_story', { id });
    expect((story.bundle as { state: string }).state).toBe('Failed');
    expect(JSON.stringify(story.timeline)).toMatch(/Bundle failed: .*could not be downloaded/);
  });
});

describe('the go-ahead for every send', () => {
  it('a send without confirm makes nothing and says who would get what; with it, sends', async () => {
    const args = { label: 'NDA', signers: [...ada, { name: 'Bob', phone: '+15551234567' }], in_order: true };
    const body = { ...args, documents: [{ base64: CONTRACT_B64, name: 'nda.pdf' }] };
    const before = engine.listBundles({}).then((p) => p.total);
    const r = await fails(c, 'send_for_signature', body, /^Not done: this would send a new Bundle/);
    expect(r.prose).toBe(
      'Not done: this would send a new Bundle to 2 signers, 1 by email and 1 by SMS, one after another in order, each with a link to sign 1 document. Nothing was changed. Call again with confirm: true to do it.',
    );
    expect((r.data.error as { target: unknown }).target).toEqual({
      label: 'NDA',
      test: false,
      signers: [
        { name: 'Ada Lovelace', via: 'email', address: 'ada@example.com', order: 1, when: 'at once' },
        { name: 'Bob', via: 'sms', address: '+15551234567', order: 2, when: 'after the signer before signs' },
      ],
      documents: [{ name: 'nda.pdf', from: 'given as base64' }],
      subject: null,
      message: null,
    });
    expect((await engine.listBundles({})).total).toBe(await before);
    await fails(
      all,
      'create_bundle',
      { body: bundleRequest() },
      /^Not done: this would send a new Bundle to 2 signers/,
    );
    expect((await engine.listBundles({})).total).toBe(await before);
    expect((await ok(c, 'send_for_signature', { ...body, confirm: true })).existing).toBe(false);
    // A draft reaches nobody: no go-ahead needed.
    expect((await ok(c, 'send_for_signature', { ...body, label: 'Later', draft: true })).existing).toBe(false);
  });
});

describe('marks and words that hold', () => {
  it('every changing tool marked idempotent answers a repeat with the same answer', async () => {
    const b = await engine.createBundle(bundleRequest());
    const first = await ok(c, 'cancel_bundle', { id: b.id, confirm: true });
    expect(await ok(c, 'cancel_bundle', { id: b.id, confirm: true })).toEqual(first);
    expect(await ok(c, 'cancel_bundle', { id: b.id })).toEqual(first);
    const op = await engine.createBundle(bundleRequest());
    const once = await ok(all, 'cancel_bundle', { id: op.id, confirm: true });
    expect(await ok(all, 'cancel_bundle', { id: op.id, confirm: true })).toEqual(once);
    const signed = await engine.createBundle(
      bundleRequest({ packets: [{ key: 'a', name: 'Ada', email: 'a@example.com' }] }),
    );
    await ok(all, 'sign_packet', { id: signed.packets[0]!.id, body: {}, confirm: true });
    await ok(c, 'wait_for_bundles', { ids: [signed.id], until: 'docs-ready', timeout_seconds: 60 });
    const files = await ok(c, 'download_files', { id: signed.id });
    expect(await ok(c, 'download_files', { id: signed.id })).toEqual(files);
    const marked = [...c.tools.values()].filter((t) => t.annotations?.idempotentHint && !t.annotations.readOnlyHint);
    // Over HTTP download_files writes nothing: it is read-only there; over stdio its repeat is held in every-tool.
    expect(marked.map((t) => t.name).sort()).toEqual(['cancel_bundle']);
  });

  it('a Bundle is `id` in every tool, and a description names only arguments its tool has', async () => {
    for (const set of [c, all])
      for (const t of set.tools.values()) {
        const props = Object.keys(t.inputSchema.properties ?? {});
        expect(props, t.name).not.toContain('slug');
        if (/\bbody:/.test(t.description ?? '')) expect(props, t.name).toContain('body');
      }
    const del = all.tools.get('delete_bundle')!;
    expect(del.inputSchema.required).toEqual(['id']);
    expect(all.tools.get('advance_clock')!.description).not.toMatch(/\bbody\b/);
    expect(c.tools.get('cancel_bundle')!.description).toMatch(/drafts included/);
  });

  it('resend_webhook_events leaves delivered events out unless redeliver: true, and says so', async () => {
    const receiver = createServer((_req, res) => res.writeHead(200).end('ok'));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      await engine.createWebhook({ name: 'h', url, event_types: ['bundle_sent'] } as never);
      const [event] = await engine.triggerWebhookEvent('bundle_sent');
      const pk = event!.pk;
      for (let i = 0; i < 100 && !(await engine.getWebhookEvent(pk)).success; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect((await engine.getWebhookEvent(pk)).success).toBe(true);
      const left = await call(c, 'resend_webhook_events', { events: [pk], confirm: true });
      expect(left.data).toEqual({ resent: [], already_delivered: [pk] });
      expect(left.prose).toBe(
        'No undelivered event to resend. 1 given event already delivered was left out (redeliver: true sends them again).',
      );
      const again = await ok(c, 'resend_webhook_events', { events: [pk], redeliver: true, confirm: true });
      expect(again).toEqual({ resent: [{ event: pk, success: true, status: 200 }], already_delivered: [] });
    } finally {
      receiver.close();
    }
  });

  it('resend_webhook_events with missed: true sends what a webhook missed while disabled, once, after the go-ahead', async () => {
    let got = 0;
    const receiver = createServer((_req, res) => {
      got++;
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const w = await engine.createWebhook({ name: 'missing', url, event_types: ['bundle_cancelled'] } as never);
      await engine.updateWebhook(w.id, { enabled: false });
      await engine.cancelBundle((await engine.createBundle(bundleRequest())).id);
      await fails(
        c,
        'resend_webhook_events',
        { webhook: w.id, missed: true, confirm: true },
        /is disabled: enable it again first \(call_operation update_webhook with enabled: true\)/,
      );
      await engine.updateWebhook(w.id, { enabled: true });
      const asked = await call(c, 'resend_webhook_events', { webhook: w.id, missed: true });
      expect(asked.prose).toMatch(
        new RegExp(
          `^Not done: this would send the 1 event missed while disabled \\(\\S+\\) to webhook ${w.id}, each once\\.`,
        ),
      );
      expect(got).toBe(0);
      const sent = await ok(c, 'resend_webhook_events', { webhook: w.id, missed: true, confirm: true });
      expect(sent.missed).toMatchObject({ delivered: 1, failed: 0, queued: 0 });
      expect(sent.resent).toEqual([
        { event: (sent.missed as { events: string[] }).events[0], success: true, status: 200 },
      ]);
      expect(got).toBe(1);
      const none = await call(c, 'resend_webhook_events', { webhook: w.id, missed: true, confirm: true });
      expect(none.prose).toBe(`Webhook ${w.id} has no missed events to send: nothing was done.`);
      expect(got).toBe(1);
    } finally {
      receiver.close();
    }
  });
});

describe('one name per operation', () => {
  it("call_operation takes the table's name (OpenAPI's operationId), lists only those, and its tool's name too", async () => {
    const listed = await c.client.listTools();
    const schema = listed.tools.find((t) => t.name === 'call_operation')!.inputSchema as unknown as {
      properties: { operation: { enum: string[] } };
    };
    const { OPERATIONS } = await import('../../src/service/operations.js');
    // Every operation but a sandbox's fixtures (for test files, not agents).
    expect([...schema.properties.operation.enum].sort()).toEqual(
      OPERATIONS.filter((o) => !o.fixture)
        .map((o) => o.name)
        .sort(),
    );
    expect(schema.properties.operation.enum).not.toContain('setupAccount');
    const made = await engine.createBundle(bundleRequest());
    const byName = await call(c, 'call_operation', { operation: 'getBundle', arguments: { id: made.id } });
    expect(byName.isError, byName.text).toBe(false);
    expect(byName.data.id).toBe(made.id);
    const byTool = await call(c, 'call_operation', { operation: 'get_bundle', arguments: { id: made.id } });
    expect(byTool.data.id).toBe(made.id);
    const described = await call(c, 'call_operation', { operation: 'get_bundle', describe: true });
    expect(described.data.operation).toBe('getBundle');
    const wrong = await call(c, 'call_operation', { operation: 'getBundles' });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toContain('getBundle');
  });
});

describe('describe anything', () => {
  it('create_bundle: in sections when whole it would not fit, a member in detail on request', async () => {
    const top = await call(c, 'call_operation', { operation: 'createBundle', describe: true });
    expect(top.isError, top.text).toBe(false);
    expect(top.prose).not.toMatch(/page_size|per_page/);
    expect(Object.keys((top.data.input_outline as { members: object }).members)).toEqual(['body', 'confirm']);
    const body = await call(c, 'call_operation', { operation: 'create_bundle', describe: true, member: 'body' });
    expect(body.isError, body.text).toBe(false);
    const outlined = body.data.outline as { members: object } | undefined;
    const whole = JSON.stringify(body.data.schema ?? {});
    const members = outlined
      ? Object.keys(outlined.members)
      : ['packets', 'documents', 'label'].filter((m) => whole.includes(`"${m}"`));
    expect(members).toEqual(expect.arrayContaining(['packets', 'documents', 'label']));
    const docs = await call(c, 'call_operation', {
      operation: 'create_bundle',
      describe: true,
      member: 'body.documents',
    });
    expect(docs.isError, docs.text).toBe(false);
    expect(JSON.stringify(docs.data)).toContain('file_url');
    await fails(c, 'call_operation', { operation: 'create_bundle', describe: true, member: 'body.nope' }, /^No member/);
    // Small schemas come whole.
    const small = await ok(c, 'call_operation', { operation: 'get_bundle', describe: true });
    expect(small.input_schema).toBeDefined();
  });
});

describe('/mcp on the wire', () => {
  const post = (body: string, authorization = `Token ${key}`) =>
    fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    });

  it('takes the key as Bearer too', async () => {
    const bearer = await httpClient(origin, key, 'default', { authorization: `Bearer ${key}` });
    try {
      expect(bearer.tools.size).toBeGreaterThan(10);
    } finally {
      await bearer.client.close();
    }
    expect((await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', 'Bearer esk_wrong')).status).toBe(401);
  });

  it('answers valid JSON that is not JSON-RPC with -32600, and bad JSON with -32700', async () => {
    for (const body of ['{"hello":"world"}', '[]', '42', '{"jsonrpc":"1.0","id":1,"method":"x"}']) {
      const r = await post(body);
      expect([r.status, ((await r.json()) as { error: { code: number } }).error.code], body).toEqual([400, -32600]);
    }
    const bad = await post('{"jsonrpc":');
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});
