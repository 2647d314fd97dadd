// The same tools over Streamable HTTP at esign serve's /mcp (the SDK's client, a real esign serve
// process, an API key), and esign mcp on stdio over the remote backend (that esign serve), where the
// live guard holds: a non-test create needs a profile marked live.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_TOOLS } from '../../src/mcp/jobs.js';
import { OPERATIONS } from '../../src/service/operations.js';
import { startServe, type ServeProcess } from '../cli/serveProcess.js';
import { buildServer } from '../../src/server/app.js';
import { CONTRACT_B64, newEngine, tempDir } from '../helpers.js';
import { BIN, call, fails, httpClient, ok, type Seeded, seed, stdioClient } from './support.js';

const data = tempDir('esign-mcp-http-');
let serve: ServeProcess;
let seeded: Seeded;
let client: Client;

const request = (label: string, over: Record<string, unknown> = {}) => ({
  label,
  packets: [{ key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' }],
  documents: [{ key: 'contract', file_b64: CONTRACT_B64 }],
  ...over,
});

beforeAll(async () => {
  const served = join(data.dir, 'served');
  seeded = await seed(served);
  serve = await startServe({ PATH: process.env.PATH ?? '', ESIGN_DATA_DIR: served });
  client = await httpClient(serve.address, seeded.key);
}, 30_000);
afterAll(async () => {
  await client?.close();
  serve?.process.kill('SIGTERM');
  await serve?.process;
  data.cleanup();
});

describe('esign serve at /mcp', () => {
  it('refuses a request without a valid key with a JSON-RPC error (the Error object as its data), before reading it', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(`${serve.address}/mcp`, { method: 'POST', headers, body });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: 'Authentication credentials were not provided.',
        data: expect.objectContaining({ code: 'not_authenticated' }),
      },
    });
    const wrong = await fetch(`${serve.address}/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: 'Token esk_wrong' },
      body,
    });
    expect(wrong.status).toBe(401);
    const get = await fetch(`${serve.address}/mcp`, { headers: { authorization: `Token ${seeded.key}` } });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it("offers the tools of the table and the jobs, without the ones that write this machine's files", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('download_bundle_files');
    expect(tools).toHaveLength(OPERATIONS.length + JOB_TOOLS.length - 1);
  });

  it('runs the scenario over HTTP: create, sign, wait, read the signed file, verify its hash', async () => {
    const b = await ok(client, 'create_bundle', { body: request('Over HTTP') });
    const again = await ok(client, 'create_bundle', { body: request('Over HTTP') });
    expect([again.id, again.existing]).toEqual([b.id, true]);
    const [packet] = b.packets as { id: string }[];
    await fails(
      client,
      'sign_packet',
      { id: packet!.id, body: {} },
      /Not done: this would act in the sandbox: the signer signs .*\(id "[^"]+"\)\. Nothing was changed\./,
    );
    expect((await ok(client, 'get_packet', { id: packet!.id })).status).not.toBe('co');
    expect((await ok(client, 'sign_packet', { id: packet!.id, body: {}, confirm: true })).status).toBe('co');
    expect(
      (await ok(client, 'wait_for_bundles', { ids: [b.id], until: 'docs-ready', timeout_seconds: 60 })).outcome,
    ).toBe('reached');
    const files = (await ok(client, 'get_bundle_files', { slug: b.id })).result as { kind: string; sha256: string }[];
    const index = files.findIndex((f) => f.kind !== 'document');
    const read = await client.readResource({ uri: `esign://bundles/${b.id}/files/${index}` });
    const hash = createHash('sha256')
      .update(Buffer.from((read.contents[0] as { blob: string }).blob, 'base64'))
      .digest('hex');
    expect(hash).toBe(files[index]!.sha256);
    expect((await ok(client, 'verify_documents', { hashes: [hash] })).all_match).toBe(true);
    // Paths name the server's files: refused over HTTP.
    await fails(client, 'verify_documents', { paths: ['/etc/passwd'] }, /names a file on the server's machine/);
    await fails(
      client,
      'check_batch',
      { csv_path: '/etc/passwd', template: seeded.templateId },
      /names a file on the server's machine/,
    );
  }, 60_000);
});

describe('/mcp and the create limit', () => {
  it("counts each Bundle made against the key's create limit; a retry that finds its Bundle is not counted", async () => {
    const engine = newEngine();
    const key = engine.keys.create('mcp').key;
    const app = await buildServer({
      service: engine,
      authenticate: (k) => engine.keys.authenticate(k),
      rateLimits: { createLimit: 1 },
    });
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    const limited = await httpClient(origin, key);
    try {
      const first = await ok(limited, 'create_bundle', { body: request('One') });
      expect((await ok(limited, 'create_bundle', { body: request('One') })).id).toBe(first.id);
      const r = await fails(
        limited,
        'create_bundle',
        { body: request('Two') },
        /^429 throttled: Request was throttled/,
      );
      expect(r.data).toMatchObject({ error: { status: 429 } });
      expect((await ok(limited, 'list_bundles', {})).total).toBe(1);
    } finally {
      await limited.close();
      await app.close();
      await engine.dispose();
    }
  });
});

describe('esign mcp on stdio over the remote backend', () => {
  const home = join(data.dir, 'home');
  const env = () => ({ HOME: home, ESIGN_CONFIG_DIR: join(home, 'config'), ESIGN_DATA_DIR: join(data.dir, 'unused') });

  it('holds the live guard (a non-test create is refused, nothing made; a test one goes) and runs the scenario', async () => {
    const { client: remote } = await stdioClient({
      ...env(),
      ESIGN_BASE_URL: `${serve.address}/api/v2`,
      ESIGN_API_KEY: seeded.key,
    });
    try {
      const before = (await ok(remote, 'list_bundles', {})).total;
      const refused = await fails(
        remote,
        'create_bundle',
        { body: request('Real people') },
        /Refused to create and send this Bundle: it is not a test Bundle, .*Nothing was sent/,
      );
      expect(refused.data).toMatchObject({ error: { refused: 'live' } });
      expect((await ok(remote, 'list_bundles', {})).total).toBe(before);
      const draft = await ok(remote, 'create_bundle', { body: request('A draft reaches nobody', { status: 'dr' }) });
      expect(draft.status).toBe('dr');
      const older = await ok(remote, 'create_bundle', { body: request('2.2.0 drafts', { is_draft: true }) });
      expect(older.status).toBe('dr');
      await fails(
        remote,
        'send_bundle',
        { slug: draft.id, confirm: true },
        /Refused to send a draft Bundle to its signers \(slug "[^"]+"\): it is not a test Bundle/,
      );
      expect((await ok(remote, 'get_bundle', { slug: draft.id })).status).toBe('dr');
      // Test Bundles go only to the account's own users.
      const owner = [{ key: 'me', name: 'The Owner', email: 'owner@esign.local' }];
      const test = await ok(remote, 'create_bundle', { body: request('A test', { is_test: true, packets: owner }) });
      expect([test.status, test.is_test]).toEqual(['se', true]);
      expect(
        (await ok(remote, 'create_bundle', { body: request('A test', { is_test: true, packets: owner }) })).id,
      ).toBe(test.id);
      // The scenario's second half over the remote adapter: sign in esign serve's sandbox, wait by
      // polling, save the files over HTTP, verify them.
      const [me] = test.packets as { id: string }[];
      expect((await ok(remote, 'sign_packet', { id: me!.id, body: {}, confirm: true })).status).toBe('co');
      const waited = await ok(remote, 'wait_for_bundles', { ids: [test.id], until: 'docs-ready', timeout_seconds: 60 });
      expect(waited.outcome).toBe('reached');
      const dir = join(data.dir, 'remote-files');
      const saved = (await ok(remote, 'download_bundle_files', { id: test.id, dir })).saved as {
        kind: string;
        path: string;
      }[];
      const signed = saved.filter((f) => f.kind !== 'document').map((f) => f.path);
      expect(signed.length).toBeGreaterThan(0);
      expect((await ok(remote, 'verify_documents', { paths: signed })).all_match).toBe(true);
    } finally {
      await remote.close();
    }
  }, 60_000);

  it('lets a profile marked live send for real', async () => {
    const added = await execa(
      'node',
      [
        BIN,
        'profile',
        'add',
        'prod',
        '--base-url',
        `${serve.address}/api/v2`,
        '--api-key-stdin',
        '--live',
        '--use',
        '--no-verify',
      ],
      {
        env: { PATH: process.env.PATH ?? '', ...env() },
        extendEnv: false,
        input: `${seeded.key}\n`,
        reject: false,
      },
    );
    expect(added.exitCode, added.stderr).toBe(0);
    const { client: live } = await stdioClient(env());
    try {
      expect((await ok(live, 'create_bundle', { body: request('Deliberately live') })).status).toBe('se');
      const r = await call(live, 'get_rate_limit');
      expect(r.isError, r.text).toBe(false);
    } finally {
      await live.close();
    }
  }, 30_000);
});
