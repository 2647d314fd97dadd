// `esign mcp` as an MCP client starts it: the SDK's Client over stdio against a spawned
// bin/esign.js (run `npm run build` first), on the local engine. The tool list matches the
// operations table; an agent's scenario runs end to end; a retried create makes one Bundle; a
// destructive call without confirm changes nothing.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_TOOLS } from '../../src/mcp/jobs.js';
import { annotationsOf, toolName } from '../../src/mcp/operationTools.js';
import { OPERATIONS } from '../../src/service/operations.js';
import { CONTRACT_B64, tempDir } from '../helpers.js';
import { execa } from 'execa';
import { MAX_LINE_BYTES, wholeLines } from '../../src/mcp/stdio.js';
import { BIN, call, fails, ok, seed, stdioClient } from './support.js';

const data = tempDir('esign-mcp-');
let client: Client;
let stderr: () => string;

beforeAll(async () => {
  await seed(data.dir);
  ({ client, stderr } = await stdioClient({ ESIGN_DATA_DIR: data.dir }));
}, 30_000);
afterAll(async () => {
  await client?.close();
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
      env: { PATH: process.env.PATH ?? '', ESIGN_DATA_DIR: data.dir },
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
      env: { PATH: process.env.PATH ?? '', ESIGN_DATA_DIR: data.dir },
      extendEnv: false,
      reject: false,
      input: `${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping', params: { _meta: { pad } } })}\n`,
    });
    expect([big.exitCode, big.stderr]).toEqual([0, '']);
    expect(JSON.parse(big.stdout)).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  }, 30_000);
});

describe('esign mcp over stdio', () => {
  it('lists one tool per operation of the table, annotated as the table says, and the job tools', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const op of OPERATIONS) {
      const tool = byName.get(toolName(op.name));
      expect(tool, op.name).toBeDefined();
      expect(tool!.annotations, op.name).toEqual(annotationsOf(op));
      expect(tool!.annotations!.readOnlyHint, op.name).toBe(op.effect === 'read');
      expect(tool!.annotations!.destructiveHint, op.name).toBe(op.effect === 'change' || op.effect === 'destroy');
      expect(tool!.annotations!.idempotentHint, op.name).toBe(op.idempotent);
      expect(tool!.annotations!.openWorldHint, op.name).toBe(op.reachesPeople);
      expect(tool!.inputSchema.type).toBe('object');
      if (tool!.annotations!.destructiveHint)
        expect(Object.keys(tool!.inputSchema.properties ?? {}), op.name).toContain('confirm');
    }
    for (const j of JOB_TOOLS) expect(byName.get(j.name)?.annotations, j.name).toEqual(j.annotations);
    expect(tools).toHaveLength(OPERATIONS.length + JOB_TOOLS.length);
  });

  it("runs an agent's scenario: create, sign as the signers, wait, download, verify", async () => {
    const created = await ok(client, 'create_bundle', { body: request('NDA for Ada and Bob') });
    expect(created).toMatchObject({ status: 'se', existing: false });
    expect(created.custom_key).toMatch(/^mcp-[0-9a-f]{32}$/);
    const slug = created.id as string;
    const packets = created.packets as { id: string; key: string }[];
    for (const p of packets) {
      expect((await ok(client, 'view_packet', { id: p.id, confirm: true })).status).toBe('st');
      expect((await ok(client, 'sign_packet', { id: p.id, body: {}, confirm: true })).status).toBe('co');
    }
    const waited = await ok(client, 'wait_for_bundles', { ids: [slug], until: 'docs-ready', timeout_seconds: 60 });
    expect(waited).toMatchObject({ outcome: 'reached', pending: [] });
    const dir = join(data.dir, 'downloads');
    const saved = (await ok(client, 'download_bundle_files', { id: slug, dir })).saved as {
      kind: string;
      path: string;
      sha256: string;
    }[];
    const signed = saved.filter((s) => s.kind !== 'document');
    expect(signed.length).toBeGreaterThan(0);
    for (const s of saved) expect(createHash('sha256').update(readFileSync(s.path)).digest('hex')).toBe(s.sha256);
    const combined = saved.find((s) => s.kind === 'combined_pdf') ?? signed[0]!;
    const index = saved.indexOf(combined);
    const read = await client.readResource({ uri: `esign://bundles/${slug}/files/${index}` });
    const blob = Buffer.from((read.contents[0] as { blob: string }).blob, 'base64');
    expect(createHash('sha256').update(blob).digest('hex')).toBe(combined.sha256);
    const verified = await ok(client, 'verify_documents', { paths: signed.map((s) => s.path) });
    expect(verified.all_match).toBe(true);
    const results = verified.results as { status: string; envelope: { bundle_slug: string } }[];
    expect(results.every((r) => r.status === 'match' && r.envelope.bundle_slug === slug)).toBe(true);
    const story = await ok(client, 'inspect_bundle', { id: slug });
    expect((story.bundle as { status: string }).status).toBe('co');
    expect((story.timeline as unknown[]).length).toBeGreaterThan(3);
  }, 60_000);

  it('a retried create returns the Bundle already made: one Bundle, one send', async () => {
    const body = request('Retried NDA');
    const first = await ok(client, 'create_bundle', { body });
    const again = await ok(client, 'create_bundle', { body });
    expect(again.id).toBe(first.id);
    expect([first.existing, again.existing]).toEqual([false, true]);
    const listed = await ok(client, 'list_bundles', { search: first.custom_key as string });
    expect(listed.total).toBe(1);
    // A key given by the agent is kept, and finds its Bundle the same way.
    const keyed = await ok(client, 'create_bundle', { body: { ...body, label: 'Keyed', custom_key: 'order-4711' } });
    const keyedAgain = await ok(client, 'create_bundle', {
      body: { ...body, label: 'Keyed', custom_key: 'order-4711' },
    });
    expect([keyed.custom_key, keyedAgain.id, keyedAgain.existing]).toEqual(['order-4711', keyed.id, true]);
    const inspected = await ok(client, 'inspect_bundle', { id: first.id as string });
    // One signing request per signer was sent: the retry sent nothing.
    const requests = (inspected.timeline as { source: string; code: string }[]).filter(
      (t) => t.source === 'message' && t.code === 'signing_request',
    );
    expect(requests).toHaveLength(2);
  });

  it('two creates with the same arguments at once make one Bundle (the second finds the first by its key)', async () => {
    const body = request('Raced NDA');
    const [a, b] = await Promise.all([ok(client, 'create_bundle', { body }), ok(client, 'create_bundle', { body })]);
    expect(a.id).toBe(b.id);
    expect([a.existing, b.existing].sort()).toEqual([false, true]);
    expect((await ok(client, 'list_bundles', { search: a.custom_key as string })).total).toBe(1);
  });

  it('a destructive call without confirm says what it would do and changes nothing', async () => {
    const b = await ok(client, 'create_bundle', { body: request('Keep me') });
    const refused = await fails(
      client,
      'cancel_bundle',
      { slug: b.id },
      /^Not done: this would cancel a Bundle \(slug "[^"]+"\): "Keep me", Sent, signers Ada Lovelace, Bob Example\. Nothing was changed\. .*confirm: true/,
    );
    expect(refused.data).toMatchObject({ error: { code: 'refused', refused: 'confirm' } });
    await fails(client, 'cancel_bundle', { slug: b.id, confirm: false }, /Not done/);
    expect((await ok(client, 'get_bundle', { slug: b.id })).status).toBe('se');
    expect((await ok(client, 'cancel_bundle', { slug: b.id, confirm: true })).status).toBe('ca');
  });

  it("errors are tool errors carrying the API's field messages", async () => {
    const r = await fails(
      client,
      'create_bundle',
      { body: { label: 'x', packets: [], documents: [] } },
      /^400 invalid: /,
    );
    expect(r.text).toMatch(/- packets: At least one packet \(signer\) is required\./);
    expect((r.data.error as { errors: { field: string }[] }).errors.map((e) => e.field)).toContain('packets');
    await fails(client, 'get_bundle', { slug: 'nosuchbundle' }, /^404 not_found: /);
    await fails(client, 'get_bundle', {}, /^400 invalid: slug: /);
    await fails(client, 'get_bundle', { slug: 'x', extra: 1 }, /extra: This field is not allowed here\./);
    const unknown = await call(client, 'get_bundle', { slug: 'nosuchbundle' });
    expect(unknown.data).toMatchObject({ error: { status: 404, code: 'not_found' } });
  });

  it('serves a Bundle and its files as resources', async () => {
    const b = await ok(client, 'create_bundle', { body: request('As a resource') });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`esign://bundles/${b.id}`);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'esign://bundles/{slug}',
      'esign://bundles/{slug}/files/{index}',
    ]);
    const json = await client.readResource({ uri: `esign://bundles/${b.id}` });
    expect(JSON.parse((json.contents[0] as { text: string }).text).id).toBe(b.id);
    await expect(client.readResource({ uri: `esign://bundles/${b.id}/files/0` })).rejects.toThrow(/./);
    await expect(client.readResource({ uri: 'esign://bundles/nosuch' })).rejects.toThrow(/not found/i);
    await expect(client.readResource({ uri: 'https://example.com/' })).rejects.toThrow(/No such resource/);
    expect(stderr()).toBe('');
  });
});
