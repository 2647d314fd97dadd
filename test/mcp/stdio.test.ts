// `esign mcp` as an MCP client starts it: the SDK's Client over stdio against a spawned
// bin/esign.js (run `npm run build` first), on the local engine. `--tools all` matches the
// operations table; retried and concurrent creates make one Bundle; errors carry the API's words;
// resources name Bundles by id. (The agent's scenario: scenario.test.ts.)
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotationsOf, toolName } from '../../src/mcp/marks.js';
import { wholeLines } from '../../src/mcp/stdio.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { OPERATIONS } from '../../src/service/operations.js';
import { CONTRACT_B64, fixture, programEnv, tempDir } from '../helpers.js';
import { BIN, type Connected, call, errorOf, fails, ok, seed, stdioClient } from './support.js';

const MAX_LINE_BYTES = DEFAULT_LIMITS.documentJsonBytes;
const data = tempDir('esign-mcp-');
let all: Connected & { stderr: () => string };
let jobs: Connected;

beforeAll(async () => {
  await seed(data.dir);
  [all, jobs] = await Promise.all([
    stdioClient({ ESIGN_DATA_DIR: data.dir }, { set: 'all' }),
    stdioClient({ ESIGN_DATA_DIR: data.dir }),
  ]);
});
afterAll(async () => {
  await all?.client.close();
  await jobs?.client.close();
  data.cleanup();
});

const request = (label: string) => ({
  label,
  packets: [
    { key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
    { key: 'bob', name: 'Bob Example', email: 'bob@example.com' },
  ],
  documents: [{ key: 'contract', file_b64: CONTRACT_B64 }],
});

describe('the stdio bound', () => {
  it('hands on whole lines, each in one chunk, and stops at a longer one', async () => {
    const through = async (chunks: string[], max: number) => {
      const t = wholeLines(max);
      const out: string[] = [];
      t.on('data', (d: Buffer) => out.push(d.toString()));
      const done = new Promise<string | undefined>((resolve) => {
        t.once('error', (e) => resolve(e.message));
        t.once('end', () => resolve(undefined));
      });
      for (const c of chunks) t.write(c);
      t.end();
      return [await done, out];
    };
    expect(await through(['12345\n1', '23', '45\n6\n'], 5)).toEqual([undefined, ['12345\n', '12345\n', '6\n']]);
    expect((await through(['123', '456\n'], 5))[0]).toMatch(/longer than 5 bytes/);
    expect((await through(['1\n123456'], 5))[0]).toMatch(/longer than 5 bytes/);
  });

  it('esign mcp stops at a message longer than the bound: one esign: line, exit 3', async () => {
    const r = await execa(process.execPath, [BIN, 'mcp'], {
      env: { ...programEnv(), ESIGN_DATA_DIR: data.dir },
      extendEnv: false,
      reject: false,
      input: Buffer.alloc(MAX_LINE_BYTES + 1, 0x78),
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toBe(`esign: Stopped reading stdin: a message longer than ${MAX_LINE_BYTES} bytes.`);
    expect(r.stdout).toBe('');
    // A message under the bound but over the SDK's default (10 MB) is read: a create with documents fits.
    const pad = 'x'.repeat(20 * 1024 * 1024);
    const big = await execa(process.execPath, [BIN, 'mcp'], {
      env: { ...programEnv(), ESIGN_DATA_DIR: data.dir },
      extendEnv: false,
      reject: false,
      input: `${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping', params: { _meta: { pad } } })}\n`,
    });
    expect([big.exitCode, big.stderr]).toEqual([0, '']);
    expect(JSON.parse(big.stdout)).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  });

  it('esign mcp answers a JSON-RPC batch with -32600 instead of dropping it, and goes on', async () => {
    const batch = [{ jsonrpc: '2.0', id: 1, method: 'ping' }];
    const r = await execa(process.execPath, [BIN, 'mcp'], {
      env: { ...programEnv(), ESIGN_DATA_DIR: data.dir },
      extendEnv: false,
      reject: false,
      input: `${JSON.stringify(batch)}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}\n`,
    });
    const answers = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/batch/) } },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
  });
});

describe('esign mcp --tools all', () => {
  it('lists one tool per operation of the table, annotated as the table says, each with an outputSchema', async () => {
    const byName = all.tools;
    for (const op of OPERATIONS.filter((o) => !o.fixture)) {
      const tool = byName.get(toolName(op.name));
      expect(tool, op.name).toBeDefined();
      expect(tool!.annotations, op.name).toEqual(annotationsOf(op));
      expect(tool!.annotations!.readOnlyHint, op.name).toBe(op.effect === 'read');
      expect(tool!.annotations!.destructiveHint, op.name).toBe(op.effect === 'change' || op.effect === 'destroy');
      expect(tool!.annotations!.idempotentHint, op.name).toBe(op.idempotent);
      expect(tool!.annotations!.openWorldHint, op.name).toBe(op.reachesPeople);
      expect(tool!.inputSchema.type).toBe('object');
      expect(tool!.outputSchema?.type, op.name).toBe('object');
      if (tool!.annotations!.destructiveHint)
        expect(Object.keys(tool!.inputSchema.properties ?? {}), op.name).toContain('confirm');
    }
    expect([...byName.values()].every((t) => t.outputSchema)).toBe(true);
    // The webhook test tools of the sandbox are not a signer's acts.
    for (const name of ['trigger_webhook_event', 'resend_webhook_event'])
      expect(byName.get(name)!.description, name).not.toMatch(/acts as the signer/);
    expect(byName.get('sign_packet')!.description).toMatch(/acts as the signer/);
  });

  it('a retried create returns the Bundle already made: one Bundle, one send', async () => {
    const body = request('Retried NDA');
    const first = await ok(all, 'create_bundle', { body, confirm: true });
    const again = await call(all, 'create_bundle', { body, confirm: true });
    expect([again.data.id, first.existing, again.data.existing]).toEqual([first.id, false, true]);
    expect(again.prose).toBe(
      `Bundle ${first.id} already exists for this request (the same custom_key): nothing was created or sent now.`,
    );
    expect(first.custom_key).toMatch(/^mcp-[0-9a-f]{32}$/);
    expect((await ok(all, 'list_bundles', { search: first.custom_key as string })).total).toBe(1);
    // A key given by the agent is kept, and finds its Bundle the same way.
    const keyedBody = { ...body, label: 'Keyed', custom_key: 'order-4711' };
    const keyed = await ok(all, 'create_bundle', { body: keyedBody, confirm: true });
    const keyedAgain = await ok(all, 'create_bundle', { body: keyedBody, confirm: true });
    expect([keyed.custom_key, keyedAgain.id, keyedAgain.existing]).toEqual(['order-4711', keyed.id, true]);
    const story = await ok(all, 'bundle_story', { id: first.id as string });
    const requests = (story.timeline as { source: string; code: string }[]).filter(
      (t) => t.source === 'message' && t.code === 'signing_request',
    );
    expect(requests).toHaveLength(2);
  });

  it("errors are tool errors: the prose names the status and code, the data holds the API's field messages", async () => {
    const r = await fails(
      all,
      'create_bundle',
      { body: { label: 'x', packets: [], documents: [] }, confirm: true },
      /^Refused by the API: 400 invalid\./,
    );
    const e = errorOf(r) as { errors: { field: string; message: string }[] };
    expect(e.errors).toContainEqual({ field: 'packets', message: 'At least one packet (signer) is required.' });
    await fails(all, 'get_bundle', { id: 'nosuchbundle' }, /^Refused by the API: 404 not_found\./);
    const missing = await fails(all, 'get_bundle', {}, /^Refused by the API: 400 invalid\./);
    expect((errorOf(missing) as { errors: { field: string }[] }).errors.map((x) => x.field)).toEqual(['id']);
    const extra = await fails(all, 'get_bundle', { id: 'x', extra: 1 }, /400 invalid/);
    expect(errorOf(extra).errors).toEqual([{ field: 'extra', message: 'This field is not allowed here.' }]);
  });
});

describe('esign mcp (the default set)', () => {
  it('five identical sends at once make one Bundle (the others find it by its key)', async () => {
    const args = {
      label: 'Raced NDA',
      signers: [{ name: 'Ada Lovelace', email: 'ada@example.com' }],
      documents: [{ path: fixture('contract.pdf') }],
      confirm: true,
    };
    const replies = await Promise.all([1, 2, 3, 4, 5].map(() => ok(jobs, 'send_for_signature', args)));
    const ids = new Set(replies.map((r) => (r.bundle as { id: string }).id));
    expect(ids.size).toBe(1);
    expect(replies.filter((r) => r.existing === false)).toHaveLength(1);
    const found = await ok(jobs, 'find_bundles', { search: replies[0]!.custom_key as string });
    expect(found.total).toBe(1);
  });

  it('a document path that is not there is refused, naming the argument; nothing is made', async () => {
    const before = (await ok(jobs, 'find_bundles', {})).total;
    const r = await fails(
      jobs,
      'send_for_signature',
      { signers: [{ name: 'Ada', email: 'ada@example.com' }], documents: [{ path: '/nonexistent/nda.pdf' }] },
      /^Refused \(invalid\): the reason is in the data\./,
    );
    expect(errorOf(r).message).toBe('/nonexistent/nda.pdf: no such file');
    expect((await ok(jobs, 'find_bundles', {})).total).toBe(before);
  });

  it('serves a Bundle and its files as resources, named by id (a label stays in the JSON)', async () => {
    const b = await ok(all, 'create_bundle', { body: request('As a resource'), confirm: true });
    const { resources } = await jobs.client.listResources();
    const listed = resources.find((r) => r.uri === `esign://bundles/${b.id}`);
    expect(listed).toMatchObject({ name: b.id, title: `Bundle ${b.id}` });
    expect(JSON.stringify(resources)).not.toContain('As a resource');
    const { resourceTemplates } = await jobs.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'esign://bundles/{slug}',
      'esign://bundles/{slug}/files/{index}',
    ]);
    const json = await jobs.client.readResource({ uri: `esign://bundles/${b.id}` });
    expect(JSON.parse((json.contents[0] as { text: string }).text).label).toBe('As a resource');
    await expect(jobs.client.readResource({ uri: `esign://bundles/${b.id}/files/0` })).rejects.toThrow(/./);
    await expect(jobs.client.readResource({ uri: 'esign://bundles/nosuch' })).rejects.toThrow(/not found/i);
    await expect(jobs.client.readResource({ uri: 'https://example.com/' })).rejects.toThrow(/No such resource/);
    expect(all.stderr()).toBe('');
  });
});
