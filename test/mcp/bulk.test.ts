// Bulk jobs for an agent (issue 48, item 4), as a stranger's client does them: the SDK's Client over
// stdio (bin/esign.js mcp) and over a real esign serve's /mcp, and raw JSON-RPC. A CSV of 20 people
// sent the same NDA with one go-ahead, on the journal `esign batch send` keeps (either resumes the
// other's; no row is ever sent twice); the key's create limit stops a batch, and a later call goes
// on; every draft older than a week (on the server's clock) cancelled with one go-ahead naming each.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { startServe, type ServeProcess } from '../cli/serveProcess.js';
import { CONTRACT_B64, fixture, programEnv, tempDir } from '../helpers.js';
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

const NDA = (file: string) => ({
  label: 'NDA for {{name}}',
  email_subject: 'Please sign the NDA',
  packets: [{ key: 'signer', name: '{{name}}', email: '{{email}}' }],
  documents: [{ key: 'nda', ...(file ? { file_path: file } : { file_b64: CONTRACT_B64 }) }],
});

const people = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `Person ${from + i},person${from + i}@example.com`);
const csvOf = (rows: string[]) => `name,email\n${rows.join('\n')}\n`;

/** Every Bundle of a data directory (the engine opened, read, closed). */
async function bundlesIn(dir: string) {
  const engine = new LocalEngine({ dataDir: dir });
  try {
    return (await engine.listBundles({ per_page: 100 })).items;
  } finally {
    await engine.close();
  }
}

describe('send_batch over stdio: a CSV of 20 people the same NDA', () => {
  const data = tempDir('esign-mcp-batch-');
  let c: Connected & { stderr: () => string };
  const csvPath = join(data.dir, 'people.csv');
  const specPath = join(data.dir, 'nda.json');
  const spec = NDA(fixture('nda.pdf'));

  beforeAll(async () => {
    await seed(data.dir);
    c = await stdioClient({ ESIGN_DATA_DIR: data.dir });
  });
  afterAll(async () => {
    await c?.client.close();
    data.cleanup();
  });

  it('continues the batch esign batch send began, previews who gets what, sends once with the go-ahead, never twice', async () => {
    // The operator sent the first 8 rows with the CLI.
    writeFileSync(csvPath, csvOf(people(1, 8)));
    writeFileSync(specPath, JSON.stringify(spec));
    const cli = await execa(process.execPath, [BIN, 'batch', 'send', csvPath, '--spec', specPath, '--yes', '-q'], {
      env: { ...programEnv(), ESIGN_DATA_DIR: data.dir },
      reject: false,
    });
    expect(cli.exitCode, cli.stderr).toBe(0);
    expect(await bundlesIn(data.dir)).toHaveLength(8);

    // The CSV grows to 20; the agent checks it, then asks.
    writeFileSync(csvPath, csvOf(people(1, 20)));
    const checked = await ok(c, 'send_batch', { csv_path: csvPath, spec, dry_run: true });
    // The dry run reads the journal the CLI wrote: 8 rows sent before, 12 to create.
    expect(checked).toMatchObject({
      outcome: 'checked',
      rows: 20,
      skipped: 8,
      valid: 12,
      would_create: 12,
      exists: 0,
      invalid: 0,
      ok: true,
    });

    const asked = await fails(
      c,
      'send_batch',
      { csv_path: csvPath, spec },
      /^Not done: this would send batch \w+: 12 new Bundles to 12 signers, each signer a link to sign; 8 rows already sent are skipped\. Nothing was changed\. Call again with confirm: true/,
    );
    const target = errorOf(asked).target as Record<string, unknown>;
    expect(target).toMatchObject({
      rows_in_csv: 20,
      sending: 12,
      signers: 12,
      already_sent: 8,
      invalid: 0,
      test: false,
      subject: 'Please sign the NDA',
      rows_not_shown: 0,
    });
    const rows = target.rows as {
      row: number;
      label: string;
      signers: { name: string; via: string; address: string }[];
    }[];
    expect(rows.map((r) => r.row)).toEqual(Array.from({ length: 12 }, (_, i) => 9 + i));
    expect(rows[0]).toMatchObject({
      label: 'NDA for Person 9',
      signers: [{ name: 'Person 9', via: 'email', address: 'person9@example.com' }],
    });
    expect(await bundlesIn(data.dir)).toHaveLength(8);

    const sent = await ok(c, 'send_batch', { csv_path: csvPath, spec, confirm: true });
    expect(sent).toMatchObject({ outcome: 'done', rows: 20, created: 12, skipped: 8, failed: 0, not_started: 0 });
    expect((sent.bundles as unknown[]).length).toBe(12);
    const all = await bundlesIn(data.dir);
    expect(all).toHaveLength(20);
    expect(new Set(all.map((b) => b.packets[0]!.email)).size).toBe(20);

    // Again, with or without the go-ahead: nothing to send, nothing sent.
    for (const confirm of [undefined, true]) {
      const again = await ok(c, 'send_batch', { csv_path: csvPath, spec, ...(confirm ? { confirm } : {}) });
      expect(again).toMatchObject({ outcome: 'done', created: 0, skipped: 20 });
    }
    expect(await bundlesIn(data.dir)).toHaveLength(20);

    // The CLI reads the same journal: the batch's 20 rows are sent.
    const status = await execa(process.execPath, [BIN, 'batch', 'status', sent.batch as string, '--json'], {
      env: { ...programEnv(), ESIGN_DATA_DIR: data.dir },
      reject: false,
    });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ batch: sent.batch, sent: 20 });
  }, 120_000);

  it('a client that declares elicitation is asked once for the whole batch; a no sends nothing', async () => {
    const questions: ElicitRequest['params'][] = [];
    let answer: 'accept' | 'decline' = 'decline';
    const asks = await stdioClient(
      { ESIGN_DATA_DIR: data.dir },
      {
        capabilities: { elicitation: { form: {} } },
        setup: (client) =>
          client.setRequestHandler(ElicitRequestSchema, async (req) => {
            questions.push(req.params);
            return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
          }),
      },
    );
    try {
      const csv = csvOf(people(101, 103));
      await fails(
        asks,
        'send_batch',
        { csv, spec: NDA('') },
        /^Not done: the person was asked \(through the client\) whether to send batch \w+: 3 new Bundles/,
      );
      expect(questions).toHaveLength(1);
      expect(questions[0]!.message).toContain('person102@example.com');
      answer = 'accept';
      expect(await ok(asks, 'send_batch', { csv, spec: NDA('') })).toMatchObject({ outcome: 'done', created: 3 });
      expect(questions).toHaveLength(2);
      expect(await bundlesIn(data.dir)).toHaveLength(23);
    } finally {
      await asks.client.close();
    }
  }, 60_000);
});

describe('bulk jobs over /mcp (a real esign serve)', () => {
  const data = tempDir('esign-mcp-bulk-http-');
  const served = join(data.dir, 'served');
  let serve: ServeProcess;
  let seeded: Seeded;
  let client: Connected;
  let keys: string[] = [];

  beforeAll(async () => {
    seeded = await seed(served);
    // The drafts and Bundles made by hand below are made with keys of their own (the limit is per key).
    const engine = new LocalEngine({ dataDir: served });
    keys = [engine.keys.create('cancel').key, engine.keys.create('remind').key];
    await engine.close();
    // A create limit of 5 per 4 s: a batch of 8 stops at it, and goes on in the next window.
    serve = await startServe({ ...programEnv(), ESIGN_DATA_DIR: served }, [
      '--create-rate-limit',
      '5',
      '--rate-window',
      '4',
    ]);
    client = await httpClient(serve.address, seeded.key);
  });
  afterAll(async () => {
    await client?.client.close();
    await serve?.stop();
    data.cleanup();
  });

  const api = async (method: string, path: string, body?: unknown, key = seeded.key) => {
    const r = await fetch(`${serve.address}${path}`, {
      method,
      headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(r.status, `${method} ${path}: ${r.status}`).toBeLessThan(300);
    return r.json() as Promise<Record<string, unknown>>;
  };

  it('a batch sent as CSV text stops at the key create limit and goes on when called again; none twice', async () => {
    const csv = csvOf(people(1, 8));
    const spec = NDA('');
    await fails(client, 'send_batch', { csv, spec }, /^Not done: this would send batch \w+: 8 new Bundles/);
    await fails(
      client,
      'send_batch',
      { csv, spec: NDA('/etc/passwd'), confirm: true },
      /^spec\.documents\.file_path names a file on the machine of the server/,
    );
    const first = await ok(client, 'send_batch', { csv, spec, confirm: true, csv_name: 'people' });
    expect(first.outcome).toBe('stopped');
    expect(first.created).toBeLessThanOrEqual(5);
    const failures = first.failures as { error: string }[];
    expect(failures.every((f) => /throttled/.test(f.error))).toBe(true);
    let last = first;
    for (let i = 0; i < 5 && last.outcome !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 4_200));
      last = await ok(client, 'send_batch', { csv, spec, confirm: true, csv_name: 'people' });
    }
    expect(last).toMatchObject({ outcome: 'done', rows: 8, failed: 0 });
    const list = (await api('GET', '/api/v2/bundles/?per_page=100')) as unknown as { packets: { email: string }[] }[];
    const emails = list.map((b) => b.packets[0]!.email);
    expect(emails.sort()).toEqual(
      people(1, 8)
        .map((p) => p.split(',')[1])
        .sort(),
    );

    // The same name, edited: two rows more. Rows sent are carried over, only the new ones sent.
    await new Promise((r) => setTimeout(r, 4_200));
    const more = await ok(client, 'send_batch', { csv: csvOf(people(1, 10)), spec, confirm: true, csv_name: 'people' });
    expect(more).toMatchObject({ outcome: 'done', rows: 10, created: 2, skipped: 8 });
    expect(((await api('GET', '/api/v2/bundles/?per_page=100')) as unknown as unknown[]).length).toBe(10);
  }, 120_000);

  it('cancels every draft older than a week, on the server clock, with one go-ahead naming each (raw JSON-RPC too)', async () => {
    const draft = (label: string) =>
      api(
        'POST',
        '/api/v2/bundles/',
        {
          label,
          status: 'dr',
          packets: [{ key: 's', name: 'Ada', email: 'ada@example.com' }],
          documents: [{ key: 'c', file_b64: CONTRACT_B64 }],
        },
        keys[0],
      );
    const old = [await draft('old 1'), await draft('old 2'), await draft('old 3')].map((b) => b.id as string);
    await api('POST', '/sandbox/clock/advance/', { ms: 8 * 86_400_000 });
    const fresh = (await draft('fresh')).id as string;

    const find = { states: ['draft'], older_than_days: 7 };
    const preview = await fails(
      client,
      'cancel_bundle',
      { find },
      /^Not done: this would cancel 3 Bundles: their signers can no longer sign\./,
    );
    const bundles = (errorOf(preview).target as { bundles: { id: string; label: string }[]; now: string }).bundles;
    expect(bundles.map((b) => b.id).sort()).toEqual([...old].sort());

    // As a stranger's client speaks it: one POST, JSON-RPC by hand.
    const rpc = await fetch(`${serve.address}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${seeded.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'cancel_bundle', arguments: { find, confirm: true } },
      }),
    });
    expect(rpc.status).toBe(200);
    // A bulk call may run long: it answers as a stream (one event here, the result).
    expect(rpc.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const event = (await rpc.text()).split('\n').find((l) => l.startsWith('data: '))!;
    const result = JSON.parse(event.slice(6)).result;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent.cancelled.map((b: { id: string }) => b.id).sort()).toEqual([...old].sort());
    expect(result.structuredContent).toMatchObject({ matched: 3, left_for_next_call: 0, not_done: [] });
    expect(Date.parse(result.structuredContent.now) - Date.now()).toBeGreaterThan(7 * 86_400_000);

    for (const slug of old) expect((await api('GET', `/api/v2/bundles/${slug}/`)).status).toBe('ca');
    expect((await api('GET', `/api/v2/bundles/${fresh}/`)).status).toBe('dr');
    const again = await ok(client, 'cancel_bundle', { find, confirm: true });
    expect(again).toMatchObject({ cancelled: [], matched: 0 });
    await fails(client, 'cancel_bundle', { id: fresh, find }, /^Give exactly one of id/);
  }, 60_000);

  it('reminds the signers of several Bundles with one go-ahead; a Bundle with nobody to remind is said, not failed', async () => {
    const make = (body: Record<string, unknown>) =>
      api('POST', '/api/v2/bundles/', { ...body, documents: [{ key: 'c', file_b64: CONTRACT_B64 }] }, keys[1]);
    const sent = await make({ label: 'to remind', packets: [{ key: 's', name: 'Bea', email: 'bea@example.com' }] });
    const draft = await make({
      label: 'a draft',
      status: 'dr',
      packets: [{ key: 's', name: 'Cy', email: 'cy@example.com' }],
    });
    const ids = [sent.id as string, draft.id as string];
    const asked = await fails(client, 'remind_signers', { ids }, /^Not done: this would remind 1 signer of 1 Bundle\./);
    expect(JSON.stringify(errorOf(asked).target)).toContain('bea@example.com');
    const r = await ok(client, 'remind_signers', { ids, confirm: true });
    expect(r).toMatchObject({ reminded: [{ name: 'Bea', bundle: sent.id }], matched: 2 });
    expect((r.not_done as { id: string }[]).map((x) => x.id)).toEqual([draft.id]);
  }, 60_000);
});

describe('answers an agent can act on (issue 48, item 6)', () => {
  const data = tempDir('esign-mcp-now-');
  let serve: ServeProcess;
  let seeded: Seeded;
  let client: Connected;
  beforeAll(async () => {
    seeded = await seed(data.dir);
    serve = await startServe({ ...programEnv(), ESIGN_DATA_DIR: data.dir });
    client = await httpClient(serve.address, seeded.key);
  });
  afterAll(async () => {
    await client?.client.close();
    await serve?.stop();
    data.cleanup();
  });

  it("a Bundle's story cuts signing links short unless asked for them; answers give the server's now", async () => {
    const headers = { authorization: `Token ${seeded.key}`, 'content-type': 'application/json' };
    const made = await fetch(`${serve.address}/api/v2/bundles/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        label: 'links',
        packets: [{ key: 's', name: 'Ada', email: 'ada@example.com' }],
        documents: [{ key: 'c', file_b64: CONTRACT_B64 }],
      }),
    });
    const slug = ((await made.json()) as { id: string }).id;
    const story = await ok(client, 'bundle_story', { id: slug });
    const text = JSON.stringify(story.timeline);
    const sign = /https?:\/\/[^\s"<>]+\/sign\/([A-Za-z0-9_-]+)(…?)/.exec(text);
    expect(sign, text).not.toBeNull();
    expect(sign![1]!.length).toBeLessThanOrEqual(4);
    expect(sign![2]).toBe('…');
    const whole = JSON.stringify((await ok(client, 'bundle_story', { id: slug, signing_links: true })).timeline);
    const token = /\/sign\/([A-Za-z0-9_-]+)/.exec(whole)![1]!;
    expect(token.length).toBeGreaterThan(8);
    expect(text).not.toContain(token);

    // The sandbox clock moved: the answers' now is the server's, not this machine's.
    const week = 7 * 86_400_000;
    const advanced = await fetch(`${serve.address}/sandbox/clock/advance/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ms: week }),
    });
    expect(advanced.status).toBe(200);
    for (const [tool, args] of [
      ['find_bundles', {}],
      ['bundle_story', { id: slug }],
    ] as const) {
      const now = Date.parse((await ok(client, tool, args)).now as string);
      expect(now - Date.now(), tool).toBeGreaterThan(week - 60_000);
    }
  }, 60_000);
});

describe('send_batch where no journal is kept', () => {
  it('checks (dry run) and refuses to send', async () => {
    const data = tempDir('esign-mcp-nojournal-');
    try {
      const { buildServer } = await import('../../src/server/app.js');
      const { serverDoors } = await import('../../src/wiring/doors.js');
      const engine = new LocalEngine({ dataDir: data.dir });
      const key = engine.keys.create('mcp').key;
      const app = await buildServer({
        service: engine,
        authenticate: (k) => engine.keys.authenticate(k),
        doors: serverDoors,
      });
      const origin = await app.listen({ host: '127.0.0.1', port: 0 });
      const c = await httpClient(origin, key);
      try {
        const csv = csvOf(people(1, 2));
        expect(await ok(c, 'send_batch', { csv, spec: NDA(''), dry_run: true })).toMatchObject({
          outcome: 'checked',
          valid: 2,
        });
        await fails(c, 'send_batch', { csv, spec: NDA(''), confirm: true }, /^This server keeps no batch journal/);
        expect((await call(c, 'find_bundles', {})).data.total).toBe(0);
      } finally {
        await c.client.close();
        await app.close();
        await engine.close();
      }
    } finally {
      data.cleanup();
    }
  });
});
