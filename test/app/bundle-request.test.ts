// One request builder (app/bundleRequest.ts) behind every door: the same intent, said through the
// CLI's flags, MCP's send_for_signature, a CSV row of `batch send` and a scenario step, reaches the
// engine's create as the same request (body and attached files, deep-equal). Each door runs for real on
// one engine (the CLI and the batch in-process on its data directory, MCP over an in-memory transport,
// the scenario through its runner); what reaches LocalEngine.createBundle is recorded as it passes.
// Then the rules that used to differ between doors, one case each.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { loadScenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/runner.js';
import type { AttachedFile } from '../../src/service/types.js';
import { esignIn } from '../cli/inProcess.js';
import { fixture, newEngine, useTempDir } from '../helpers.js';
import { type Connected, call } from '../mcp/support.js';

const tmp = useTempDir('esign-bundle-request-');
let engine: ReturnType<typeof newEngine>;
let mcp: Connected;
/** A Document Template with two roles (buyer, seller), and the Envelope Template of the fixtures (client, provider). */
let T: string;
let ET: string;
const NDA = fixture('nda.pdf');

beforeAll(async () => {
  engine = newEngine();
  T = (
    await engine.importTemplate({
      name: 'Sale',
      pdf: readFileSync(NDA),
      roles: [{ key: 'buyer' }, { key: 'seller' }],
      fields: [
        { key: 'price', kind: 'inp', page: 1, x: 10, y: 10, w: 100, h: 20, editor_roles: ['buyer'] },
        { key: 'ok', kind: 'inp', page: 1, x: 10, y: 40, w: 100, h: 20, editor_roles: ['seller'] },
      ],
    } as never)
  ).id;
  const specPath = fixture('templates/envelope-template.json');
  ET = (await engine.createEnvelopeTemplate(JSON.parse(readFileSync(specPath, 'utf8')), join(specPath, '..'))).id;
  copyFileSync(NDA, join(tmp.dir, 'nda.pdf'));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ service: engine, fileAccess: true }).connect(a);
  const client = new Client({ name: 'bundle-request', version: '1' });
  await client.connect(b);
  const { tools } = await client.listTools();
  mcp = { client, tools: new Map(tools.map((t) => [t.name, t])), set: 'default', fileAccess: true };
}, 120_000);
afterAll(async () => {
  await mcp?.client.close();
  await engine?.dispose();
});

type Seen = { body: Record<string, unknown>; files: AttachedFile[] };

/** What each create reaching an engine of this process was asked, while `act` runs. */
async function creates(act: () => Promise<unknown>): Promise<Seen[]> {
  const spy = vi.spyOn(LocalEngine.prototype, 'createBundle');
  const fromEnvelope = vi.spyOn(LocalEngine.prototype, 'createBundleFromEnvelopeTemplate');
  try {
    await act();
    // The engine makes an Envelope Template's Bundle through its own createBundle: the door's call is the first.
    const calls = fromEnvelope.mock.calls.length
      ? fromEnvelope.mock.calls.map(([body]) => [body] as const)
      : spy.mock.calls;
    return calls.map(([body, files]) => ({
      body: structuredClone(body) as Record<string, unknown>,
      files: ((files ?? []) as AttachedFile[]).map((f) => ({ filename: f.filename, data: Buffer.from(f.data) })),
    }));
  } finally {
    spy.mockRestore();
    fromEnvelope.mockRestore();
  }
}

const env = () => ({ ESIGN_DATA_DIR: engine.dataDir, ESIGN_CONFIG_DIR: join(tmp.dir, 'config') });

const cli = async (args: string[]) => {
  const r = await esignIn(['bundle', 'create', ...args], { env: env() });
  return r;
};

async function mcpSend(args: Record<string, unknown>) {
  return call(mcp, 'send_for_signature', args);
}

/** A CSV of one row sent with `batch send --spec`, from a folder of its own (holding nda.pdf). */
async function csvSend(
  name: string,
  source: { spec: Record<string, unknown> } | { envelope: string },
  row: Record<string, string>,
) {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(NDA, join(dir, 'nda.pdf'));
  if ('spec' in source) writeFileSync(join(dir, 'spec.json'), JSON.stringify(source.spec));
  const header = Object.keys(row);
  const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  writeFileSync(join(dir, 'rows.csv'), `${header.join(',')}\n${header.map((h) => cell(row[h]!)).join(',')}\n`);
  const shape = 'spec' in source ? ['--spec', join(dir, 'spec.json')] : ['--envelope-template', source.envelope];
  const r = await esignIn(['batch', 'send', join(dir, 'rows.csv'), ...shape, '--yes'], {
    env: env(),
  });
  expect(r.exitCode, r.stderr).toBe(0);
}

/** One create step, run by the scenario runner on the test's engine. */
async function scenarioStep(name: string, body: Record<string, unknown>, op = 'createBundle') {
  const dir = join(tmp.dir, name);
  mkdirSync(join(dir, 'work'), { recursive: true });
  copyFileSync(NDA, join(dir, 'nda.pdf'));
  const file = join(dir, 'step.json');
  writeFileSync(file, JSON.stringify({ name, steps: [{ name: 'make', call: op, body }] }));
  const loaded = await loadScenario(file, {});
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
  const r = await runScenario(
    loaded.loaded,
    { service: engine, label: 'the test engine', workDir: join(dir, 'work'), close: async () => {} },
    { env: {}, pollMs: 10 },
  );
  expect(r.steps.map((s) => s.status)).toEqual(['passed']);
}

/** Each door's request, its custom_key (unique in an account: one per door) set aside. */
const withoutKey = (s: Seen[], key: string) => {
  expect(s).toHaveLength(1);
  const { custom_key, ...body } = s[0]!.body;
  expect(custom_key).toBe(key);
  return { body, files: s[0]!.files };
};

describe('the same intent through every door gives the same request', () => {
  const intents = [
    {
      name: 'a file here and a Document Template whose roles go in order; one signer by email, one by phone',
      cli: (key: string) => [
        ...['--signer', 'Ada Lovelace <ada@example.com>', '--signer', 'Bob Babbage <+1 505 555 0100>'],
        ...['--file', join(tmp.dir, 'nda.pdf'), '--template', T, '--value', 'price=100'],
        ...['--label', 'Sale to Ada', '--subject', 'Please sign', '--in-order', '--draft', '--custom-key', key],
      ],
      mcp: (key: string) => ({
        signers: [
          { name: 'Ada Lovelace', email: 'ada@example.com' },
          { name: 'Bob Babbage', phone: '+1 505 555 0100' },
        ],
        documents: [{ path: join(tmp.dir, 'nda.pdf') }, { template_id: T, values: { price: '100' } }],
        label: 'Sale to Ada',
        subject: 'Please sign',
        in_order: true,
        draft: true,
        custom_key: key,
      }),
      csv: {
        source: () => ({
          spec: {
            label: 'Sale to {{name}}',
            email_subject: 'Please sign',
            in_order: true,
            status: 'dr',
            packets: [
              { name: '{{full}}', email: '{{email}}' },
              { name: 'Bob Babbage', phone: '{{phone}}' },
            ],
            documents: [
              { file_path: 'nda.pdf' },
              { template_id: T, field_values: [{ key: 'price', initial_value: '{{price}}' }] },
            ],
          },
        }),
        row: (key: string) => ({
          name: 'Ada',
          full: 'Ada Lovelace',
          email: 'ada@example.com',
          phone: '+1 505 555 0100',
          price: '100',
          custom_key: key,
        }),
      },
      scenario: (key: string) => ({
        label: 'Sale to Ada',
        email_subject: 'Please sign',
        in_order: true,
        status: 'dr',
        custom_key: key,
        packets: [
          { name: 'Ada Lovelace', email: 'ada@example.com' },
          { name: 'Bob Babbage', phone: '+1 505 555 0100' },
        ],
        documents: [
          { file_path: 'nda.pdf' },
          { template_id: T, field_values: [{ key: 'price', initial_value: '100' }] },
        ],
      }),
      op: 'createBundle',
      files: () => [{ filename: 'nda.pdf', data: readFileSync(NDA) }],
      expected: () => ({
        label: 'Sale to Ada',
        email_subject: 'Please sign',
        in_order: true,
        status: 'dr',
        packets: [
          { key: 'signer-1', name: 'Ada Lovelace', email: 'ada@example.com' },
          { key: 'signer-2', name: 'Bob Babbage', phone: '+1 505 555 0100', deliver_via: 'phone' },
        ],
        documents: [
          { key: 'doc-1', file_index: 0 },
          {
            key: 'doc-2',
            template_id: T,
            assignments: [
              { role: 'buyer', signer: 'signer-1' },
              { role: 'seller', signer: 'signer-2' },
            ],
            field_values: [{ key: 'price', initial_value: '100' }],
          },
        ],
      }),
    },
    {
      name: "a Document Template's roles named by email and by number",
      op: 'createBundle',
      cli: (key: string) => [
        ...['--signer', 'Ada Lovelace <ada@example.com>', '--signer', 'Bob Babbage <bob@example.com>'],
        ...['--template', T, '--assign', 'buyer=BOB@example.com', '--assign', 'seller=1'],
        ...['--draft', '--custom-key', key],
      ],
      mcp: (key: string) => ({
        signers: [
          { name: 'Ada Lovelace', email: 'ada@example.com' },
          { name: 'Bob Babbage', email: 'bob@example.com' },
        ],
        documents: [{ template_id: T, roles: { buyer: 'BOB@example.com', seller: '1' } }],
        draft: true,
        custom_key: key,
      }),
      csv: {
        source: () => ({
          spec: {
            status: 'dr',
            packets: [
              { name: 'Ada Lovelace', email: '{{ada}}' },
              { name: 'Bob Babbage', email: '{{bob}}' },
            ],
            documents: [
              {
                template_id: T,
                assignments: [
                  { role: 'buyer', signer: '{{buyer}}' },
                  { role: 'seller', signer: '1' },
                ],
              },
            ],
          },
        }),
        row: (key: string) => ({
          ada: 'ada@example.com',
          bob: 'bob@example.com',
          buyer: 'BOB@example.com',
          custom_key: key,
        }),
      },
      scenario: (key: string) => ({
        status: 'dr',
        custom_key: key,
        packets: [
          { name: 'Ada Lovelace', email: 'ada@example.com' },
          { name: 'Bob Babbage', email: 'bob@example.com' },
        ],
        documents: [
          {
            template_id: T,
            assignments: [
              { role: 'buyer', signer: 'BOB@example.com' },
              { role: 'seller', signer: '1' },
            ],
          },
        ],
      }),
      files: () => [],
      expected: () => ({
        status: 'dr',
        packets: [
          { key: 'signer-1', name: 'Ada Lovelace', email: 'ada@example.com' },
          { key: 'signer-2', name: 'Bob Babbage', email: 'bob@example.com' },
        ],
        documents: [
          {
            key: 'doc-1',
            template_id: T,
            assignments: [
              { role: 'buyer', signer: 'signer-2' },
              { role: 'seller', signer: 'signer-1' },
            ],
          },
        ],
      }),
    },
    {
      name: "an Envelope Template: its roles in order, its field values, the SMS-pin role's signer by phone",
      op: 'createBundleFromEnvelopeTemplate',
      cli: (key: string) => [
        ...['--envelope-template', ET, '--value', 'fee=1200'],
        ...['--signer', 'Ada Lovelace <+1 505 555 0100>', '--signer', 'Bob Babbage <bob@example.com>'],
        ...['--draft', '--custom-key', key],
      ],
      mcp: (key: string) => ({
        envelope_template: ET,
        values: { fee: '1200' },
        signers: [
          { name: 'Ada Lovelace', phone: '+1 505 555 0100' },
          { name: 'Bob Babbage', email: 'bob@example.com' },
        ],
        draft: true,
        custom_key: key,
      }),
      csv: {
        source: () => ({ envelope: ET }),
        row: (key: string) => ({
          'client.name': 'Ada Lovelace',
          'client.phone': '+1 505 555 0100',
          'provider.name': 'Bob Babbage',
          'provider.email': 'bob@example.com',
          'field.fee': '1200',
          status: 'dr',
          custom_key: key,
        }),
      },
      scenario: (key: string) => ({
        envelope_template: { template_id: ET, field_values: [{ key: 'fee', initial_value: '1200' }] },
        packets: [
          { name: 'Ada Lovelace', phone: '+1 505 555 0100' },
          { name: 'Bob Babbage', email: 'bob@example.com' },
        ],
        status: 'dr',
        custom_key: key,
      }),
      files: () => [],
      expected: () => ({
        status: 'dr',
        packets: [
          { key: 'client', name: 'Ada Lovelace', phone: '+1 505 555 0100', deliver_via: 'phone' },
          { key: 'provider', name: 'Bob Babbage', email: 'bob@example.com' },
        ],
        envelope_template: { template_id: ET, field_values: [{ key: 'fee', initial_value: '1200' }] },
      }),
    },
  ];

  it.each(intents.map((intent, n) => ({ ...intent, n })))('$name', async (intent) => {
    const key = (door: string) => `${door}-${intent.n}`;
    const seen = {
      cli: withoutKey(
        await creates(async () => {
          const r = await cli(intent.cli(key('cli')));
          expect(r.exitCode, r.stderr).toBe(0);
        }),
        key('cli'),
      ),
      mcp: withoutKey(
        await creates(async () => {
          const r = await mcpSend(intent.mcp(key('mcp')));
          expect(r.isError, r.text).toBe(false);
        }),
        key('mcp'),
      ),
      csv: withoutKey(
        await creates(() => csvSend(key('csv'), intent.csv.source(), intent.csv.row(key('csv')))),
        key('csv'),
      ),
      scenario: withoutKey(
        await creates(() => scenarioStep(key('scenario'), intent.scenario(key('scenario')), intent.op)),
        key('scenario'),
      ),
    };
    const want = { body: intent.expected(), files: intent.files() };
    expect(seen.cli).toEqual(want);
    expect(seen.mcp).toEqual(want);
    expect(seen.csv).toEqual(want);
    expect(seen.scenario).toEqual(want);
  });
});

describe('the rules that used to differ between doors', () => {
  it('a role naming no signer is refused by the CLI and MCP alike (the CLI passed it on, MCP took only key or number)', async () => {
    const made = await creates(async () => {
      const r = await cli([
        ...['--signer', 'Ada <ada@example.com>', '--signer', 'Bob <bob@example.com>'],
        ...['--template', T, '--assign', 'buyer=carol@example.com', '--draft'],
      ]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toBe(
        'esign: --assign buyer=carol@example.com: no such signer (name one by key, number, email, phone or name).',
      );
      const m = await mcpSend({
        signers: [
          { name: 'Ada', email: 'ada@example.com' },
          { name: 'Bob', email: 'bob@example.com' },
        ],
        documents: [{ template_id: T, roles: { buyer: 'carol@example.com' } }],
        draft: true,
      });
      expect(m.isError).toBe(true);
      expect((m.data.error as { message: string }).message).toBe(
        'roles: no signer "carol@example.com" for role buyer (name one by key, number from 1, email, phone or name).',
      );
    });
    expect(made).toEqual([]);
  });

  it("a Document Template's roles go in order only to signers without keys (MCP filled them in order whatever the keys)", async () => {
    const [keyed] = await creates(async () => {
      const r = await mcpSend({
        signers: [
          { key: 'seller', name: 'Ada', email: 'ada@example.com' },
          { key: 'buyer', name: 'Bob', email: 'bob@example.com' },
        ],
        documents: [{ template_id: T }],
        draft: true,
        custom_key: 'rule-keyed',
      });
      expect(r.isError, r.text).toBe(false);
    });
    // No assignments: the API gives each role to the signer with its key.
    expect(keyed!.body.documents).toEqual([{ key: 'doc-1', template_id: T }]);
    const b = await engine.findBundleByCustomKey('rule-keyed');
    expect(b?.packets.map((p) => p.email)).toEqual(['ada@example.com', 'bob@example.com']);
  });

  it("roles in order need as many signers as roles, said in each door's words (the CLI sent none)", async () => {
    const made = await creates(async () => {
      const r = await cli(['--signer', 'Ada <ada@example.com>', '--template', T, '--draft']);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toBe(
        `esign: Document Template ${T} has 2 signer roles (buyer, seller): give one --signer per role, in order, or name each: --assign ROLE=SIGNER.`,
      );
      const m = await mcpSend({
        signers: [{ name: 'Ada', email: 'ada@example.com' }],
        documents: [{ template_id: T }],
      });
      expect(m.isError).toBe(true);
      expect(m.text).toContain(
        `Document Template ${T} has 2 signer role(s) (buyer, seller) and 1 signer(s) were given`,
      );
    });
    expect(made).toEqual([]);
  });

  it("a file's name given is the document's; the attached file keeps its own, so its kind is known (MCP renamed the file)", async () => {
    const docx = join(tmp.dir, 'contract.docx');
    copyFileSync(fixture('contract.docx'), docx);
    // The account lacks office uploads: the engine refuses the create, after the request reached it.
    const [seen] = await creates(async () => {
      const r = await mcpSend({
        signers: [{ name: 'Ada', email: 'ada@example.com' }],
        documents: [{ path: docx, name: 'Services' }],
        draft: true,
      });
      expect(r.text).toContain('Uploading office documents (contract.docx) requires');
    });
    expect(seen!.body.documents).toEqual([{ key: 'doc-1', file_index: 0, filename: 'Services' }]);
    expect(seen!.files.map((f) => f.filename)).toEqual(['contract.docx']);
  });
});
