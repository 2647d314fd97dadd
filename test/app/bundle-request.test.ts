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
  try {
    await act();
    return spy.mock.calls.map(([body, files]) => ({
      body: structuredClone(body) as Record<string, unknown>,
      files: (files ?? []).map((f) => ({ filename: f.filename, data: Buffer.from(f.data) })),
    }));
  } finally {
    spy.mockRestore();
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
async function csvSend(name: string, spec: Record<string, unknown>, row: Record<string, string>) {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(NDA, join(dir, 'nda.pdf'));
  writeFileSync(join(dir, 'spec.json'), JSON.stringify(spec));
  const header = Object.keys(row);
  const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  writeFileSync(join(dir, 'rows.csv'), `${header.join(',')}\n${header.map((h) => cell(row[h]!)).join(',')}\n`);
  const r = await esignIn(['batch', 'send', join(dir, 'rows.csv'), '--spec', join(dir, 'spec.json'), '--yes'], {
    env: env(),
  });
  expect(r.exitCode, r.stderr).toBe(0);
}

/** One createBundle step, run by the scenario runner on the test's engine. */
async function scenarioStep(name: string, body: Record<string, unknown>) {
  const dir = join(tmp.dir, name);
  mkdirSync(join(dir, 'work'), { recursive: true });
  copyFileSync(NDA, join(dir, 'nda.pdf'));
  const file = join(dir, 'step.json');
  writeFileSync(file, JSON.stringify({ name, steps: [{ name: 'make', call: 'createBundle', body }] }));
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
        spec: () => ({
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
  ];

  it.each(intents)('$name', async (intent) => {
    const files = [{ filename: 'nda.pdf', data: readFileSync(NDA) }];
    const seen = {
      cli: withoutKey(
        await creates(async () => {
          const r = await cli(intent.cli('door-cli'));
          expect(r.exitCode, r.stderr).toBe(0);
        }),
        'door-cli',
      ),
      mcp: withoutKey(
        await creates(async () => {
          const r = await mcpSend(intent.mcp('door-mcp'));
          expect(r.isError, r.text).toBe(false);
        }),
        'door-mcp',
      ),
      csv: withoutKey(await creates(() => csvSend('csv', intent.csv.spec(), intent.csv.row('door-csv'))), 'door-csv'),
      scenario: withoutKey(
        await creates(() => scenarioStep('scenario', intent.scenario('door-scenario'))),
        'door-scenario',
      ),
    };
    const want = { body: intent.expected(), files };
    expect(seen.cli).toEqual(want);
    expect(seen.mcp).toEqual(want);
    expect(seen.csv).toEqual(want);
    expect(seen.scenario).toEqual(want);
  });
});
