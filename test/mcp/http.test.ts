// The same tools over Streamable HTTP at esign serve's /mcp (the SDK's client, a real esign serve
// process, an API key), and esign mcp on stdio over the remote backend (that esign serve), where the
// live guard holds: a non-test create needs a profile marked live.
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/service/operations.js';
import { startServe, type ServeProcess } from '../cli/serveProcess.js';
import { buildServer } from '../../src/server/app.js';
import { serverDoors } from '../../src/wiring/doors.js';
import { CONTRACT_B64, newEngine, programEnv, tempDir } from '../helpers.js';
import {
  BIN,
  type Connected,
  call,
  errorOf,
  fails,
  httpClient,
  ok,
  type Seeded,
  seed,
  stdioClient,
} from './support.js';

const data = tempDir('esign-mcp-http-');
let serve: ServeProcess;
let seeded: Seeded;
let client: Connected;

const request = (label: string, over: Record<string, unknown> = {}) => ({
  label,
  packets: [{ key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' }],
  documents: [{ key: 'contract', file_b64: CONTRACT_B64 }],
  ...over,
});

beforeAll(async () => {
  const served = join(data.dir, 'served');
  seeded = await seed(served);
  serve = await startServe({ ...programEnv(), ESIGN_DATA_DIR: served });
  client = await httpClient(serve.address, seeded.key);
});
afterAll(async () => {
  await client?.client.close();
  await serve?.stop();
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

  it("offers the default set without a member that names this machine's files, and every operation at ?tools=all", async () => {
    const schemas = JSON.stringify([...client.tools.values()].map((t) => t.inputSchema));
    for (const member of ['"path"', '"paths"', '"dir"', '"csv_path"']) expect(schemas).not.toContain(member);
    const every = await httpClient(serve.address, seeded.key, 'all');
    try {
      expect(every.tools.size).toBeGreaterThanOrEqual(OPERATIONS.length);
      expect(every.tools.has('reassign_packet')).toBe(true);
    } finally {
      await every.client.close();
    }
  });

  it("reads nothing of the server's disk: paths are refused, a spec naming files is refused, no server path is answered", async () => {
    await fails(client, 'verify_documents', { paths: ['/etc/passwd'] }, /^Refused by the API: 400 invalid/);
    await fails(
      client,
      'send_batch',
      { csv_path: '/etc/passwd', template: seeded.templateId, dry_run: true },
      /400 invalid/,
    );
    const spec = {
      packets: [{ key: 's', name: '{{name}}', email: '{{email}}' }],
      documents: [{ file_path: '{{file}}' }],
    };
    const r = await fails(
      client,
      'send_batch',
      { csv: 'name,email,file\nAda,ada@example.com,/etc/passwd\n', spec, dry_run: true },
      /^spec\.documents\.file_path names a file on the machine of the server/,
    );
    expect(r.text).not.toContain(process.cwd());
    await fails(client, 'download_files', { id: 'x', dir: '/tmp' }, /400 invalid/);
  });
});

describe('/mcp and the create limit', () => {
  it("counts each Bundle made against the key's create limit; a retry that finds its Bundle is not counted", async () => {
    const engine = newEngine();
    const key = engine.keys.create('mcp').key;
    const app = await buildServer({
      service: engine,
      authenticate: (k) => engine.keys.authenticate(k),
      rateLimits: { createLimit: 1 },
      doors: serverDoors,
    });
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    const limited = await httpClient(origin, key);
    const send = (label: string) => ({
      label,
      signers: [{ name: 'Ada Lovelace', email: 'ada@example.com' }],
      documents: [{ base64: CONTRACT_B64 }],
      confirm: true,
    });
    try {
      const first = (await ok(limited, 'send_for_signature', send('One'))).bundle as { id: string };
      expect(((await ok(limited, 'send_for_signature', send('One'))).bundle as { id: string }).id).toBe(first.id);
      const r = await fails(limited, 'send_for_signature', send('Two'), /^Refused by the API: 429 throttled\./);
      expect(errorOf(r)).toMatchObject({ status: 429 });
      expect((await ok(limited, 'find_bundles', {})).total).toBe(1);
    } finally {
      await limited.client.close();
      await app.close();
      await engine.dispose();
    }
  });
});

describe('esign mcp on stdio over the remote backend', () => {
  const home = join(data.dir, 'home');
  const env = () => ({ HOME: home, ESIGN_CONFIG_DIR: join(home, 'config'), ESIGN_DATA_DIR: join(data.dir, 'unused') });

  it('holds the live guard (a non-test create is refused, nothing made; a test one goes) and runs the scenario', async () => {
    const remote = await stdioClient(
      { ...env(), ESIGN_BASE_URL: `${serve.address}/api/v2`, ESIGN_API_KEY: seeded.key },
      { set: 'all' },
    );
    try {
      const before = (await ok(remote, 'list_bundles', {})).total;
      const refused = await fails(
        remote,
        'create_bundle',
        { body: request('Real people') },
        /Refused to create and send this Bundle: it is not a test Bundle, .*Nothing was sent/,
      );
      expect(errorOf(refused)).toMatchObject({ refused: 'live' });
      expect((await ok(remote, 'list_bundles', {})).total).toBe(before);
      const draft = await ok(remote, 'create_bundle', { body: request('A draft reaches nobody', { status: 'dr' }) });
      expect(draft.status).toBe('dr');
      const older = await ok(remote, 'create_bundle', { body: request('2.2.0 drafts', { is_draft: true }) });
      expect(older.status).toBe('dr');
      await fails(
        remote,
        'send_bundle',
        { id: draft.id, confirm: true },
        /^Refused to send a draft Bundle to its signers \(id \w+\): it is not a test Bundle/,
      );
      expect((await ok(remote, 'get_bundle', { id: draft.id })).status).toBe('dr');
      // Test Bundles go only to the account's own users.
      const owner = [{ key: 'me', name: 'The Owner', email: 'owner@example.com' }];
      const test = await ok(remote, 'create_bundle', {
        body: request('A test', { is_test: true, packets: owner }),
        confirm: true,
      });
      expect([test.status, test.is_test]).toEqual(['se', true]);
      expect(
        (
          await ok(remote, 'create_bundle', {
            body: request('A test', { is_test: true, packets: owner }),
            confirm: true,
          })
        ).id,
      ).toBe(test.id);
      // The scenario's second half over the remote adapter: sign in esign serve's sandbox, wait by
      // polling, save the files over HTTP, verify them.
      const [me] = test.packets as { id: string }[];
      expect((await ok(remote, 'sign_packet', { id: me!.id, body: {}, confirm: true })).status).toBe('co');
      const waited = await ok(remote, 'wait_for_bundles', { ids: [test.id], until: 'docs-ready', timeout_seconds: 60 });
      expect(waited.outcome).toBe('reached');
      const dir = join(data.dir, 'remote-files');
      const got = await ok(remote, 'download_files', { id: test.id, dir });
      const kinds = (got.files as { kind: string }[]).map((f) => f.kind);
      const signed = (got.saved as { index: number; path: string }[])
        .filter((f) => kinds[f.index] !== 'document')
        .map((f) => f.path);
      expect(signed.length).toBeGreaterThan(0);
      expect((await ok(remote, 'verify_documents', { paths: signed })).all_match).toBe(true);
    } finally {
      await remote.client.close();
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
        env: { ...programEnv(), ...env() },
        extendEnv: false,
        input: `${seeded.key}\n`,
        reject: false,
      },
    );
    expect(added.exitCode, added.stderr).toBe(0);
    const live = await stdioClient(env(), { set: 'all' });
    try {
      expect((await ok(live, 'create_bundle', { body: request('Deliberately live'), confirm: true })).status).toBe(
        'se',
      );
      const r = await call(live, 'get_rate_limit');
      expect(r.isError, r.text).toBe(false);
    } finally {
      await live.client.close();
    }
  });
});
