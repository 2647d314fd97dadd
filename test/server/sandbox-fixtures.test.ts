// A sandbox's fixtures on the wire, read raw as a stranger's client would: within a sandbox, its own
// key imports a Document Template from a PDF, makes an Envelope Template and sets the account up
// (PATCH /sandbox/account/); the same requests on the server's own account are a 403, their body
// unread; bad input is the Error object naming the field; and nothing set up in one sandbox is seen
// from another or from the server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { MAX_TEMPLATE_PDF_BYTES } from '../../src/domain/schemas.js';
import { serveEngine } from '../engineServer.js';
import { fixture, newEngine, tempDir } from '../helpers.js';
import { raw } from '../rawHttp.js';
import { type WireResponse, wireProblems as problemsAt } from '../wireCheck.js';

/** What is wrong with an answer of a sandbox, held to the table as the same path without its prefix. */
const wireProblems = (r: WireResponse) =>
  problemsAt({ ...r, url: r.url.replace(/^\/sandboxes\/sbx_[0-9a-f]{20}(?=\/)/, '') });

interface Made {
  id: string;
  api_key: string;
  base_url: string;
}

const NDA = readFileSync(fixture('nda.pdf')).toString('base64');
const TEMPLATE = {
  name: 'NDA',
  roles: [{ key: 'signer', label: 'Signer' }],
  fields: [
    {
      key: 'title',
      kind: 'inp',
      page: 1,
      x: 72,
      y: 560,
      w: 200,
      h: 24,
      editor_roles: ['signer'],
      data_flow_tag: 'title',
    },
    { key: 'sig', kind: 'sig', page: 1, x: 72, y: 620, w: 200, h: 36, editor_roles: ['signer'] },
  ],
  file_b64: NDA,
};

const send = (origin: string, method: string, path: string, key: string | undefined, body?: unknown) =>
  raw(origin, path, {
    method,
    ...(key ? { key } : {}),
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });

describe("a sandbox's fixtures on the wire", () => {
  const dirs = tempDir('esign-fixtures-');
  let host: Awaited<ReturnType<typeof serveEngine>> & { engine: ReturnType<typeof newEngine> };
  let a: Made;
  let b: Made;
  const root = (s: Made) => new URL(s.base_url).pathname.replace(/\/api\/v2$/, '');

  beforeAll(async () => {
    const engine = newEngine();
    const served = await serveEngine(engine, {
      sandboxes: {
        dir: join(dirs.dir, 'sandboxes'),
        openEngine: async (dataDir) => new LocalEngine({ dataDir, guardUrls: true, loopbackUrls: true }),
      },
    });
    host = { ...served, engine };
    const made = async () => {
      const r = await send(host.origin, 'POST', '/sandboxes/', host.key, {});
      expect(r.status, r.text).toBe(201);
      return r.json() as Made;
    };
    a = await made();
    b = await made();
  });
  afterAll(async () => {
    await host.close();
    await host.engine.dispose();
    dirs.cleanup();
  });

  it("says a sandbox sets fixtures up and the server's own account does not", async () => {
    const inside = await send(host.origin, 'GET', `${root(a)}/sandbox/`, a.api_key);
    expect(inside.status).toBe(200);
    expect((inside.json() as { fixtures: boolean }).fixtures).toBe(true);
    const outside = await send(host.origin, 'GET', '/sandbox/', host.key);
    expect((outside.json() as { fixtures: boolean }).fixtures).toBe(false);
  });

  it('imports a Document Template, makes an Envelope Template of it, and a Bundle reads its data flow', async () => {
    const t = await send(host.origin, 'POST', `${root(a)}/sandbox/templates/`, a.api_key, TEMPLATE);
    expect(t.status, t.text).toBe(201);
    expect(wireProblems(t)).toEqual([]);
    const template = t.json() as { id: string; roles: unknown; fields: { key: string; data_flow_tag?: string }[] };
    expect(template.roles).toEqual([{ key: 'signer', label: 'Signer' }]);
    expect(template.fields.map((f) => [f.key, f.data_flow_tag])).toEqual([
      ['title', 'title'],
      ['sig', undefined],
    ]);
    // API v2 reads it like any template.
    const read = await send(host.origin, 'GET', `${root(a)}/api/v2/templates/${template.id}/`, a.api_key);
    expect(read.status).toBe(200);

    const e = await send(host.origin, 'POST', `${root(a)}/sandbox/envelope-templates/`, a.api_key, {
      name: 'Onboarding',
      signers: [{ key: 'signer', label: 'New hire' }],
      documents: [
        { key: 'nda', template_id: template.id },
        {
          key: 'rules',
          file_b64: NDA,
          fields: [{ kind: 'sig', page: 1, x: 72, y: 100, w: 200, h: 36, editors: ['signer'] }],
        },
      ],
    });
    expect(e.status, e.text).toBe(201);
    expect(wireProblems(e)).toEqual([]);
    const envelope = e.json() as { id: string; documents: { key: string }[] };
    expect(envelope.documents.map((d) => d.key)).toEqual(['nda', 'rules']);
    const listed = await send(host.origin, 'GET', `${root(a)}/api/v2/envelope-templates/`, a.api_key);
    expect((listed.json() as { id: string }[]).map((x) => x.id)).toEqual([envelope.id]);
  });

  it("sets up the account: features, requester, users, teams and brands, each seen in the sandbox's answers", async () => {
    const before = await send(host.origin, 'GET', `${root(b)}/sandbox/account/`, b.api_key);
    expect((before.json() as { features: string[] }).features).not.toContain('teams');
    const r = await send(host.origin, 'PATCH', `${root(b)}/sandbox/account/`, b.api_key, {
      features: { teams: true, early_data: true, reminders: false },
      requester_name: 'CI Requester',
      requester_email: 'ci@example.com',
      users: [
        { email: 'qa@example.com', name: 'QA' },
        { email: 'owner@example.com', verified: false },
      ],
      teams: [{ name: 'Legal' }],
      brands: [{ name: 'Acme', redirect_url: 'https://acme.example/done' }],
    });
    expect(r.status, r.text).toBe(200);
    expect(wireProblems(r)).toEqual([]);
    const account = r.json() as {
      features: string[];
      requester_name: string;
      users: { email: string; verified: boolean }[];
      teams: { id: string; name: string }[];
      brands: { name: string }[];
    };
    expect([...account.features].sort()).toEqual(['early_data', 'teams']);
    expect(account.requester_name).toBe('CI Requester');
    expect(account.users.map((u) => [u.email, u.verified]).sort()).toEqual([
      ['owner@example.com', false],
      ['qa@example.com', true],
    ]);
    expect(account.teams.map((t) => t.name)).toEqual(['Legal']);
    expect(account.brands.map((x) => x.name)).toEqual(['Acme']);
    const facts = (await send(host.origin, 'GET', `${root(b)}/sandbox/account/`, b.api_key)).json() as {
      features: string[];
      verified_addresses: string[];
    };
    expect(facts).toEqual({ features: account.features, verified_addresses: ['qa@example.com'] });
    // The team is usable at once: a Bundle of the team is taken now that the feature is on.
    const bundle = await send(host.origin, 'POST', `${root(b)}/api/v2/bundles/`, b.api_key, {
      label: 'Team NDA',
      team: account.teams[0]!.id,
      packets: [{ key: 's1', name: 'Ada', email: 'ada@example.com' }],
      documents: [
        { key: 'd1', file_b64: NDA, fields: [{ kind: 'sig', page: 1, x: 72, y: 100, w: 200, h: 36, editors: ['s1'] }] },
      ],
    });
    expect(bundle.status, bundle.text).toBe(201);
  });

  it('keeps what one sandbox set up out of another and out of the server', async () => {
    const templates = async (origin: string, path: string, key: string) =>
      ((await send(origin, 'GET', path, key)).json() as { name: string }[]).map((t) => t.name);
    expect(await templates(host.origin, `${root(a)}/api/v2/templates/`, a.api_key)).toEqual(['NDA']);
    expect(await templates(host.origin, `${root(b)}/api/v2/templates/`, b.api_key)).toEqual([]);
    expect(await templates(host.origin, '/api/v2/templates/', host.key)).toEqual([]);
    expect(await templates(host.origin, `${root(b)}/api/v2/envelope-templates/`, b.api_key)).toEqual([]);
    expect(await templates(host.origin, '/api/v2/envelope-templates/', host.key)).toEqual([]);
    // b's account changed; a's and the server's did not.
    const features = async (path: string, key: string) =>
      ((await send(host.origin, 'GET', path, key)).json() as { features: string[] }).features;
    expect(await features(`${root(a)}/sandbox/account/`, a.api_key)).toEqual(['reminders']);
    expect(await features('/sandbox/account/', host.key)).toEqual(['reminders']);
    expect(host.engine.account.teams()).toEqual([]);
    expect(host.engine.account.settings().requester_name).not.toBe('CI Requester');
  });

  it("refuses fixtures on the server's own account, and a key of another place, before reading the body", async () => {
    for (const [method, path, body] of [
      ['PATCH', '/sandbox/account/', { features: { teams: true } }],
      ['POST', '/sandbox/templates/', TEMPLATE],
      ['POST', '/sandbox/envelope-templates/', { name: 'x', signers: [{ key: 's' }], documents: [] }],
    ] as const) {
      const r = await send(host.origin, method, path, host.key, body);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.json()).toMatchObject({ code: 'permission_denied', message: expect.stringMatching(/within one/) });
      expect(wireProblems(r)).toEqual([]);
      // No key: 401 before anything else.
      expect((await send(host.origin, method, path, undefined, body)).status).toBe(401);
    }
    expect(host.engine.account.settings().features).toEqual(['reminders']);
    // A sandbox's key is unknown at another sandbox and at the server; the server's key inside a sandbox.
    const elsewhere = [
      await send(host.origin, 'PATCH', `${root(b)}/sandbox/account/`, a.api_key, { features: { teams: true } }),
      await send(host.origin, 'PATCH', '/sandbox/account/', a.api_key, { features: { teams: true } }),
      await send(host.origin, 'PATCH', `${root(a)}/sandbox/account/`, host.key, { features: { teams: true } }),
    ];
    expect(elsewhere.map((r) => r.status)).toEqual([401, 401, 401]);
    // The body was not read: a refusal of a 30 MB upload answers without taking it.
    const big = Buffer.alloc(30 * 1024 * 1024, 'A');
    const refused = await raw(host.origin, '/sandbox/templates/', {
      method: 'POST',
      key: host.key,
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from('{"file_b64":"'), big, Buffer.from('"}')]),
    }).catch((e: Error) => e);
    // Either the answer came while the body was still being sent, or the socket was closed under it.
    if (!(refused instanceof Error)) expect(refused.status).toBe(403);
  });

  it('refuses bad input with the Error object naming the field', async () => {
    const at = (path: string) => `${root(a)}${path}`;
    const cases: [string, string, unknown, string, number][] = [
      ['POST', '/sandbox/templates/', { ...TEMPLATE, roles: [] }, 'roles', 400],
      ['POST', '/sandbox/templates/', { ...TEMPLATE, file_b64: 'not base64!' }, 'file_b64', 400],
      [
        'POST',
        '/sandbox/templates/',
        { ...TEMPLATE, file_b64: Buffer.from('hello').toString('base64') },
        'file_b64',
        400,
      ],
      ['POST', '/sandbox/templates/', { ...TEMPLATE, colour: 'red' }, 'colour', 400],
      [
        'POST',
        '/sandbox/templates/',
        { ...TEMPLATE, fields: [{ ...TEMPLATE.fields[0], editor_roles: ['nobody'] }] },
        'fields[0].editor_roles[0]',
        400,
      ],
      [
        'POST',
        '/sandbox/templates/',
        { ...TEMPLATE, file_b64: 'A'.repeat(Math.ceil(MAX_TEMPLATE_PDF_BYTES / 3) * 4 + 4) },
        'file_b64',
        400,
      ],
      [
        'POST',
        '/sandbox/envelope-templates/',
        { name: 'E', signers: [{ key: 's' }], documents: [{ key: 'd', file: '/etc/passwd' }] },
        'documents[0].file',
        400,
      ],
      [
        'POST',
        '/sandbox/envelope-templates/',
        {
          name: 'E',
          signers: [{ key: 's' }],
          documents: [{ key: 'd', template_id: '00000000-0000-4000-8000-000000000000' }],
        },
        'documents[0].template_id',
        400,
      ],
      ['PATCH', '/sandbox/account/', { features: { teams: true, earlydata: true } }, 'features.earlydata', 400],
      ['PATCH', '/sandbox/account/', { features: { teams: 'maybe' } }, 'features.teams', 400],
      ['PATCH', '/sandbox/account/', { users: [{ email: 'not an address' }] }, 'users[0].email', 400],
      [
        'PATCH',
        '/sandbox/account/',
        { teams: Array.from({ length: 51 }, (_, i) => ({ name: `t${i}` })) },
        'teams',
        400,
      ],
      ['PATCH', '/sandbox/account/', { plan: 'gold' }, 'plan', 400],
    ];
    for (const [method, path, body, field, status] of cases) {
      const r = await send(host.origin, method, at(path), a.api_key, body);
      expect(r.status, `${path} ${field}: ${r.text.slice(0, 300)}`).toBe(status);
      expect(wireProblems(r), field).toEqual([]);
      const error = r.json() as { code: string; errors: { field: string }[] };
      expect(error.code).toBe('invalid');
      expect(
        error.errors.map((e) => e.field),
        r.text.slice(0, 300),
      ).toContain(field);
    }
    const parse = await send(host.origin, 'PATCH', at('/sandbox/account/'), a.api_key, '{"features":');
    expect(parse.status).toBe(400);
    expect((parse.json() as { code: string }).code).toBe('parse_error');
    // Nothing of the refused requests was kept.
    const facts = (await send(host.origin, 'GET', at('/sandbox/account/'), a.api_key)).json() as { features: string[] };
    expect(facts.features).toEqual(['reminders']);
  });
});
