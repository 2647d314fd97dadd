// A stranger's app: the service's Express example app (JS client 1.4.0), whose routes are
// re-created here from its public description, since the app itself is not in this repository.
// Each route runs as a visitor of the app would trigger it, with the published client unmodified
// but for its base URL and key, against a real `esign serve` (the built program, default flags,
// listening on 127.0.0.1). The visitor is nobody the account knows (visitor@example.org): the app
// makes test Bundles (`is_test: true`) with the visitor as an embedded signer and at once asks for
// the embedded signing URL, to which it redirects the browser.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { type ServeProcess, startServe } from '../cli/serveProcess.js';
import { CONTRACT_B64, CONTRACT_PDF, fixture, useTempDir } from '../helpers.js';

process.env.DOTENV_CONFIG_QUIET = 'true';
const { Client, BundleHelper, PersonHelper } = await import('@blueink360/blueink-client-js');

const tmp = useTempDir('esign-js-example-');
const VISITOR = { name: 'Vera Visitor', email: 'visitor@example.org' };
let serve: ServeProcess;
let key: string;
let templateId: string;
/** The app's own HTTP server on 127.0.0.1: the sample PDF it links to, and its webhook receiver. */
let app: Server;
let appOrigin: string;
const hooks: { body: string }[] = [];
let client: InstanceType<typeof Client>;

beforeAll(async () => {
  const dataDir = join(tmp.dir, 'served');
  const engine = new LocalEngine({ dataDir });
  key = engine.keys.create('example-app').key;
  const spec = fixture('templates/envelope-template.json');
  templateId = (await engine.createEnvelopeTemplate(JSON.parse(readFileSync(spec, 'utf8')), dirname(spec))).id;
  await engine.close();
  app = createServer((req, res) => {
    if (req.url === '/sample.pdf')
      return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(CONTRACT_PDF);
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      hooks.push({ body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  serve = await startServe({ ESIGN_DATA_DIR: dataDir, NO_COLOR: '1' });
  client = new Client(key, `${serve.address}/api/v2`);
}, 60_000);
afterAll(async () => {
  await serve?.stop();
  app?.closeAllConnections();
  await new Promise((r) => app?.close(r));
});

type Made = { id: string; status: string; is_test: boolean; packets: { id: string; email: string }[] };

/** What the app does after every create: ask for the first signer's embedded URL, and open it as the browser would. */
async function embedAndOpen(bundle: Made): Promise<{ url: string; page: string }> {
  const embed = await client.packets.embedUrl(bundle.packets[0]!.id);
  expect(embed.status).toBe(201);
  const page = await fetch(embed.data.url);
  expect(page.status).toBe(200);
  return { url: embed.data.url, page: await page.text() };
}

const sandboxSign = (packetId: string) =>
  fetch(`${serve.address}/sandbox/packets/${packetId}/sign/`, {
    method: 'POST',
    headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
    body: '{}',
  });

describe("the JS example app's routes, as a visitor, against a default esign serve", () => {
  it('POST /embedded: a test Bundle of the sample PDF (base64) for the visitor, signed at once through embed_url', async () => {
    const helper = new BundleHelper({ label: 'Example: embedded', is_test: true });
    const doc = helper.addDocumentByB64('sample.pdf', CONTRACT_B64);
    const signer = helper.addSigner({ ...VISITOR, deliver_via: 'embed' });
    helper.addField(doc, { kind: 'sig', x: 72, y: 150, w: 200, h: 30, editors: [signer], label: 'Signature' });
    const made = await client.bundles.createFromBundleHelper(helper);
    expect([made.status, made.data.is_test]).toEqual([201, true]);
    const { page } = await embedAndOpen(made.data as Made);
    expect(page).toContain('sample.pdf');
    expect((await sandboxSign((made.data as Made).packets[0]!.id)).status).toBe(200);
  });

  it('POST /url: a file_url document (served by the app on 127.0.0.1) and embed_url at once, while it downloads', async () => {
    const helper = new BundleHelper({ label: 'Example: from a URL', is_test: true });
    helper.addDocumentByUrl(`${appOrigin}/sample.pdf`);
    helper.addSigner({ ...VISITOR, deliver_via: 'embed' });
    const made = await client.bundles.createFromBundleHelper(helper);
    expect(made.status).toBe(201);
    // No 409 for a pending Bundle: the page waits for the document, or shows it if it is already in.
    const { page } = await embedAndOpen(made.data as Made);
    expect(page).toMatch(/Documents are being prepared|sample\.pdf/);
    // The download from loopback is allowed by a default esign serve: the Bundle is sent, not failed.
    const id = (made.data as Made).id;
    await expect.poll(async () => (await client.bundles.retrieve(id)).data.status, { timeout: 20_000 }).toBe('se');
  });

  it('POST /template: a Bundle from an Envelope Template, the visitor in the client role with a phone as typed', async () => {
    const made = await client.bundles.createFromEnvelopeTemplate({
      is_test: true,
      envelope_template: { template_id: templateId },
      packets: [
        { key: 'client', ...VISITOR, phone: '(505) 555-5555', deliver_via: 'embed' },
        { key: 'provider', name: 'Pat Provider', email: 'pat@example.org', deliver_via: 'embed' },
      ],
    });
    expect(made.status).toBe(201);
    const packets = (made.data as Made & { packets: { phone: string }[] }).packets;
    expect(packets[0]!.phone).toBe('(505) 555-5555');
    await embedAndOpen(made.data as Made);
  });

  it('POST /upload: the visitor uploads a PDF (multer), sent as multipart part files[0]', async () => {
    const helper = new BundleHelper({ label: 'Example: upload', is_test: true });
    helper.addDocumentByFile({ buffer: CONTRACT_PDF, originalname: 'upload.pdf' });
    helper.addSigner({ ...VISITOR, deliver_via: 'embed' });
    const made = await client.bundles.createFromBundleHelper(helper);
    expect(made.status).toBe(201);
    expect((made.data as { documents: { name: string }[] }).documents[0]!.name).toBe('upload.pdf');
    await embedAndOpen(made.data as Made);
  });

  it('POST /contact: a Person from the contact form, phone as the visitor typed it', async () => {
    const person = new PersonHelper(VISITOR.name);
    person.addEmail(VISITOR.email);
    person.addPhone('505 555 5555');
    const made = await client.persons.createFromPersonHelper(person);
    expect(made.status).toBe(201);
    expect(made.data.channels.map((c: { phone?: string; email?: string }) => c.phone ?? c.email)).toEqual([
      VISITOR.email,
      '505 555 5555',
    ]);
    const found = await client.persons.list({ phone: '+1 505-555-5555' });
    expect(found.data.map((p: { id: string }) => p.id)).toEqual([made.data.id]);
  });

  it('POST /webhook: the app registers its own receiver on 127.0.0.1 (no --allow-private-urls) and hears a Bundle sent', async () => {
    const hook = await client.webhooks.create({
      name: 'example app',
      url: `${appOrigin}/webhook`,
      event_types: ['bundle_sent'],
      enabled: true,
    });
    expect(hook.status).toBe(201);
    const helper = new BundleHelper({ label: 'Example: webhook', is_test: true });
    helper.addDocumentByB64('sample.pdf', CONTRACT_B64);
    helper.addSigner({ ...VISITOR, deliver_via: 'embed' });
    const made = await client.bundles.createFromBundleHelper(helper);
    const bundleId = (made.data as Made).id;
    await expect
      .poll(() => hooks.some((h) => h.body.includes(bundleId)), { timeout: 20_000, interval: 200 })
      .toBe(true);
  });

  it("the app's test Bundles sent the visitor nothing: every message to them is withheld on the timeline", async () => {
    const bundles = (await client.bundles.list({ per_page: 50 })).data as Made[];
    const embedded = bundles.find((b) => b.packets[0]?.email === VISITOR.email && b.status === 'co');
    expect(embedded, 'the signed Bundle of POST /embedded').toBeDefined();
    await expect
      .poll(
        async () => ((await client.bundles.listEvents(embedded!.id)).data as { kind: string }[]).map((e) => e.kind),
        {
          timeout: 20_000,
        },
      )
      .toContain('mw');
  });
});
