// A stranger's client: the service's own published JS client (@blueink360/blueink-client-js, pinned
// in package.json), unmodified but for its base URL and key, runs every method it has against esign
// serve and reads successes (its `data` and `pagination`) and errors (axios's `error.response`) as
// it reads the hosted service's. Where the client itself is wrong, the test says so and shows the
// wire is right. Its one fix from outside: it requires dotenv, which it does not declare as a
// dependency, so this package installs it beside it (and keeps it quiet).
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedEngine, serveEngine } from '../engineServer.js';
import { bundleRequest, CONTRACT_B64, fixture, newEngine } from '../helpers.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';

process.env.DOTENV_CONFIG_QUIET = 'true';
const published = await import('@blueink360/blueink-client-js');
const { Client, BundleHelper, PersonHelper } = published;

interface Reply<T = Record<string, unknown>> {
  status: number;
  data: T;
  headers: Record<string, string>;
  pagination: { pageNumber: number; totalPages: number; perPage: number; totalResults: number } | null;
}
type Body = Record<string, unknown> & { id: string };
/** What the client rejects with on an error answer: axios's error, the answer in `response`. */
interface Refusal {
  response: { status: number; headers: Record<string, string>; data: Record<string, unknown> };
}
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('the call succeeded');
    },
    (e: Refusal) => e.response,
  );

let engine: ReturnType<typeof newEngine>;
let served: ServedEngine;
let rx: Receiver;
let client: typeof published.Client.prototype;
/** The methods the tests below call, by sub-client: every method the client has (checked first). */
const called = new Map<string, Set<string>>();
beforeAll(async () => {
  engine = newEngine();
  served = await serveEngine(engine);
  rx = await startReceiver();
  const real = new Client(served.key, `${served.origin}/api/v2`);
  // Records each call on its way to the client's own method (the client is not changed).
  client = Object.fromEntries(
    Object.entries(real).map(([group, methods]) => [
      group,
      new Proxy(methods as object, {
        get(target, name, receiver) {
          const m = Reflect.get(target, name, receiver);
          if (typeof m !== 'function') return m;
          return (...args: unknown[]) => {
            called.set(group, (called.get(group) ?? new Set()).add(String(name)));
            return m.apply(target, args);
          };
        },
      }),
    ]),
  );
});
afterAll(async () => {
  await rx?.close();
  await served?.close();
  await engine?.dispose();
});

const data = async <T = Body>(p: Promise<Reply<T>>) => (await p).data;
/** A Bundle whose signers have all signed, its evidence made. */
async function completed(over: Record<string, unknown> = {}): Promise<Body & { packets: { id: string }[] }> {
  const b = await data<Body & { packets: { id: string }[] }>(client.bundles.create(bundleRequest(over)));
  for (const p of b.packets) await engine.signPacket(p.id, {});
  await engine.settle();
  return b;
}

describe('the published JS client against esign serve', () => {
  it('bundles: create (JSON, a helper with a file from a path as multipart, an Envelope Template), list, retrieve', async () => {
    const made = await client.bundles.create(bundleRequest({ label: 'json' }));
    expect([made.status, made.data.label, made.data.status]).toEqual([201, 'json', 'se']);
    const helper = new BundleHelper({ label: 'helper' });
    helper.addDocumentByPath(fixture('contract.pdf'));
    helper.addSigner({ key: 'ada', name: 'Ada', email: 'ada@example.com' });
    const multipart = await client.bundles.createFromBundleHelper(helper);
    expect([multipart.status, multipart.data.documents[0].name]).toEqual([201, 'contract.pdf']);
    const specPath = fixture('templates/envelope-template.json');
    const et = await engine.createEnvelopeTemplate(JSON.parse(readFileSync(specPath, 'utf8')), dirname(specPath));
    const fromTemplate = await client.bundles.createFromEnvelopeTemplate({
      envelope_template: { template_id: et.id },
      packets: [
        { key: 'client', name: 'Cleo', email: 'cleo@example.com', phone: '+15551234567' },
        { key: 'provider', name: 'Pat', email: 'pat@example.com' },
      ],
    });
    expect([fromTemplate.status, fromTemplate.data.label]).toEqual([201, 'Services agreement']);

    const page = await client.bundles.list({ per_page: 2 });
    expect([page.data.length, page.pagination]).toEqual([
      2,
      { pageNumber: 1, totalPages: 2, perPage: 2, totalResults: 3 },
    ]);
    expect((await client.bundles.retrieve(made.data.id)).data).toEqual(made.data);
  });

  it('bundles: a draft updated, validated, sent, then cancelled; its events', async () => {
    const draft = await data(client.bundles.create(bundleRequest({ status: 'dr' })));
    const updated = await data(client.bundles.update(draft.id, { cc_emails: ['cc@example.com'] }));
    expect(updated.cc_emails).toEqual(['cc@example.com']);
    expect(await data(client.bundles.validate(draft.id))).toEqual({
      can_send: true,
      msg: expect.any(String),
      n_docs: 1,
    });
    expect((await data(client.bundles.send(draft.id))).status).toBe('se');
    expect((await data(client.bundles.cancel(draft.id))).status).toBe('ca');
    const events = await data<{ kind: string }[]>(client.bundles.listEvents(draft.id));
    expect(events.map((e) => e.kind)).toContain('bc');
  });

  it('bundles: files and data, refused (409) until the Bundle is complete; interim files by the feature (403, then 200)', async () => {
    const open = await data(client.bundles.create(bundleRequest()));
    for (const call of [client.bundles.listFiles(open.id), client.bundles.listData(open.id)])
      expect(await refusal(call)).toMatchObject({ status: 409, data: { code: 'conflict' } });
    expect(await refusal(client.bundles.generateFiles(open.id))).toMatchObject({
      status: 403,
      data: { code: 'permission_denied' },
    });
    engine.account.setFeatures(['interim_files'], true);
    expect((await client.bundles.generateFiles(open.id)).status).toBe(200);
    const done = await completed();
    const files = await data<{ kind: string }[]>(client.bundles.listFiles(done.id));
    expect(files.map((f) => f.kind)).toContain('signed_pdf');
    expect(Array.isArray(await data(client.bundles.listData(done.id)))).toBe(true);
  });

  it('bundles: pagedList walks every page from page 1; without a page it stops after one (the client is wrong: the wire says how many)', async () => {
    const all = (await client.bundles.list({ per_page: 1 })).pagination.totalPages;
    expect(all).toBeGreaterThan(1);
    const walk = async (params: Record<string, unknown>) => {
      const seen: number[] = [];
      for await (const page of client.bundles.pagedList(params)) seen.push(page.pagination.pageNumber);
      return seen;
    };
    expect(await walk({ per_page: 1, page: 1 })).toEqual(Array.from({ length: all }, (_, i) => i + 1));
    // The client starts from params.page: undefined, then undefined + 1 = NaN, and NaN <= totalPages
    // is false. Its first answer already said `1,${all},1,${all}` in X-Blueink-Pagination.
    expect(await walk({ per_page: 1 })).toEqual([1]);
  });

  it("bundles: related_data holds the client's own response objects (the client is wrong); their data is the wire's", async () => {
    const done = await completed({ label: 'related' });
    const r = await client.bundles.retrieve(done.id, { related_data: true });
    const related = r.data.related_data;
    // The client keeps each whole axios response, where it meant the body: `events` is not a list.
    expect(Array.isArray(related.events)).toBe(false);
    expect(related.events.data).toEqual(await data(client.bundles.listEvents(done.id)));
    expect(related.files.status).toBe(200);
    expect(related.data.data).toEqual(await engine.getBundleData(done.id));
    const listed = await client.bundles.list({ per_page: 1, related_data: true });
    expect(listed.data[0].related_data.events.status).toBe(200);
  });

  it('packets: update, remind, embedded URL, and the Certificate of Evidence of a complete Bundle', async () => {
    const b = await data<Body & { packets: { id: string }[] }>(
      client.bundles.create(
        bundleRequest({ packets: [{ key: 'ada', name: 'Ada', email: 'ada@example.com', deliver_via: 'embed' }] }),
      ),
    );
    const embed = await client.packets.embedUrl(b.packets[0]!.id);
    expect([embed.status, embed.data.url]).toEqual([201, expect.stringContaining('/sign/')]);
    const open = await data<Body & { packets: { id: string }[] }>(client.bundles.create(bundleRequest()));
    expect((await data(client.packets.update(open.packets[0]!.id, { name: 'Ada L' }))).name).toBe('Ada L');
    expect((await client.packets.remind(open.packets[1]!.id)).status).toBe(200);
    const done = await completed();
    const coe = await data(client.packets.retrieveCOE(done.packets[0]!.id));
    expect(coe).toEqual({
      file_url: expect.any(String),
      expires: expect.any(String),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('persons: every call, with the helper', async () => {
    const helper = new PersonHelper('Ada');
    helper.addEmail('ada@example.com');
    const ada = await data(client.persons.createFromPersonHelper(helper));
    const bob = await client.persons.create({ name: 'Bob', channels: [{ kind: 'em', email: 'bob@example.com' }] });
    expect(bob.status).toBe(201);
    expect((await client.persons.list()).pagination.totalResults).toBe(2);
    expect((await data(client.persons.retrieve(ada.id))).name).toBe('Ada');
    expect((await data(client.persons.update(ada.id, { name: 'Ada B', channels: [] }))).channels).toEqual([]);
    expect((await data(client.persons.partialUpdate(ada.id, { name: 'Ada C' }))).name).toBe('Ada C');
    const pages: number[] = [];
    for await (const page of client.persons.pagedList({ page: 1, per_page: 1 })) pages.push(page.data.length);
    expect(pages).toEqual([1, 1]);
    expect((await client.persons.delete(ada.id)).status).toBe(204);
    expect(await refusal(client.persons.retrieve(ada.id))).toMatchObject({ status: 404, data: { code: 'not_found' } });
  });

  it('templates and Envelope Templates: every call', async () => {
    const t = await engine.importTemplate({
      name: 'Lease',
      pdf: readFileSync(fixture('nda.pdf')),
      metadata: {},
      roles: [{ key: 'tenant', label: 'Tenant' }],
      fields: [],
    });
    expect((await client.templates.list()).data.map((x: Body) => x.id)).toContain(t.id);
    expect((await data(client.templates.retrieve(t.id))).name).toBe('Lease');
    expect((await data(client.templates.update(t.id, { metadata: { region: 'emea' } }))).metadata).toEqual({
      region: 'emea',
    });
    for await (const page of client.templates.pagedList({ page: 1 })) expect(page.status).toBe(200);
    expect(await refusal(client.templates.createPreparationSession({}))).toMatchObject({ status: 403 });
    engine.account.setFeatures(['template_preparation'], true);
    expect((await client.templates.createPreparationSession({})).status).toBe(201);
    expect((await client.templates.delete(t.id)).status).toBe(204);

    const et = (await client.envelopeTemplates.list()).data[0];
    expect((await data(client.envelopeTemplates.retrieve(et.id))).name).toBe(et.name);
    for await (const page of client.envelopeTemplates.pagedList({ page: 1 })) expect(page.data[0].id).toBe(et.id);
  });

  it('verify: the hash of a signed PDF matches, another does not', async () => {
    const done = await completed({ label: 'verified' });
    const [signed] = (await engine.getBundleFiles(done.id)).filter((f) => f.kind === 'signed_pdf');
    expect((await data(client.verify.create({ hash: signed!.sha256 }))).status).toBe('match');
    expect((await data(client.verify.create({ hash: 'a'.repeat(64) }))).status).toBe('no_match');
  });

  it('webhooks: every call, with events and deliveries to a receiver on 127.0.0.1', async () => {
    const w = await data(client.webhooks.create({ name: 'rx', url: rx.url, event_types: ['bundle_cancelled'] }));
    expect((await client.webhooks.list()).data.map((x: Body) => x.id)).toContain(w.id);
    expect((await data(client.webhooks.retrieve(w.id))).name).toBe('rx');
    const put = { name: 'rx2', url: rx.url, event_types: ['bundle_cancelled'] };
    expect((await data(client.webhooks.update(w.id, put))).name).toBe('rx2');
    expect((await data(client.webhooks.partialUpdate(w.id, { enabled: true }))).enabled).toBe(true);
    const h = await data(client.webhooks.createHeader({ webhook: w.id, name: 'X-A', value: 'a', order: 0 }));
    expect((await client.webhooks.listHeader()).data.map((x: Body) => x.id)).toEqual([h.id]);
    expect((await data(client.webhooks.retrieveHeader(h.id))).value).toBe('a');
    const hput = { webhook: w.id, name: 'X-B', value: 'b', order: 1 };
    expect((await data(client.webhooks.updateHeader(h.id, hput))).name).toBe('X-B');
    expect((await data(client.webhooks.partialUpdateHeader(h.id, { value: 'c' }))).value).toBe('c');
    expect((await client.webhooks.deleteHeader(h.id)).status).toBe(204);

    const b = await data(client.bundles.create(bundleRequest()));
    await client.bundles.cancel(b.id);
    await engine.deliverWebhooks();
    await rx.waitFor(1);
    const [event] = (await client.webhooks.listEvents({ webhook: w.id })).data;
    expect((await data(client.webhooks.retrieveEvent(event.pk))).success).toBe(true);
    const [delivery] = (await client.webhooks.listDeliveries({ webhook_event: event.pk })).data;
    expect((await data(client.webhooks.retrieveDelivery(delivery.pk))).pk).toBe(delivery.pk);
    const secret = await data(client.webhooks.retrieveSecret());
    expect((await data(client.webhooks.regenerateSecret())).secret).not.toBe(secret.secret);
    expect((await client.webhooks.delete(w.id)).status).toBe(204);
  });

  it('errors read as from the hosted service: the Error object in error.response.data, every field error in both spellings', async () => {
    const bad = await refusal(
      client.bundles.create(bundleRequest({ email_subject: 'x'.repeat(401), packets: [{ name: 'A', email: 'nope' }] })),
    );
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({ code: 'invalid', message: expect.any(String), detail: expect.any(String) });
    expect(bad.data.errors).toEqual([
      { field: 'email_subject', messsage: expect.any(String), message: expect.any(String) },
      { field: 'packets[0].email', messsage: 'Enter a valid email address.', message: 'Enter a valid email address.' },
    ]);
    expect(await refusal(client.bundles.retrieve('nope'))).toMatchObject({ status: 404, data: { code: 'not_found' } });
    const sent = await data(client.bundles.create(bundleRequest({ file_b64: CONTRACT_B64 })));
    expect(await refusal(client.bundles.send(sent.id))).toMatchObject({ status: 400, data: { code: 'invalid' } });
    const stranger = new Client('esk_wrong', `${served.origin}/api/v2`);
    expect(await refusal(stranger.bundles.list())).toMatchObject({
      status: 401,
      headers: { 'www-authenticate': 'Token' },
      data: { code: 'authentication_failed' },
    });
  });

  it('every method of every sub-client was called above', () => {
    const real = new Client('k', 'http://127.0.0.1:1/api/v2');
    const offered = Object.entries(real).map(([group, methods]) => [group, Object.keys(methods as object).sort()]);
    expect(offered).toEqual(offered.map(([group]) => [group, [...(called.get(group as string) ?? [])].sort()]));
    expect(offered.flatMap(([, m]) => m)).toHaveLength(54);
  });
});
