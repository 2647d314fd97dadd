// batch send an operator can trust, on both backends (the engine in-process, and esign serve over
// real HTTP with the hosted service's default quota): nothing sent twice (a custom_key already on
// the backend is `exists`, two rows with one key are a check error naming both), nothing dropped
// (tags from the spec, a tags column, template batches), one row validation for check, --dry-run
// and send, failed rows keep their custom_key in --results, and a quota that is there is used at once.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/service/types.js';
import { fixture, leaseImportArgs, tempDir, argv } from '../helpers.js';
import { type CliBackend, localBackend, serveBackend } from './backends.js';
import { esignIn } from './inProcess.js';

/** esign serve with the hosted service's documented quota (2000 calls, 200 creations an hour). */
const serve = () => serveBackend({}, { keyName: 'batch', clientDir: 'esign-batch-trust-client-' });

const SIG = { kind: 'sig', key: 's1', editors: ['signer'], page: 1, x: 10, y: 10, w: 100, h: 30 };

describe.each([
  ['local engine', localBackend],
  ['esign serve', serve],
] as const)('batch send on %s', (_name, make) => {
  let side: CliBackend;
  let data: ReturnType<typeof tempDir>;
  let spec = '';
  const esign = (args: string[]) => esignIn(args, { env: side.env });
  const write = (name: string, text: string) => {
    const p = join(data.dir, name);
    writeFileSync(p, text);
    return p;
  };
  const all = async (): Promise<Bundle[]> => (await side.engine.listBundles({ per_page: 100 })).items;
  const byKey = async (key: string) => (await all()).filter((b) => b.custom_key === key);

  beforeAll(async () => {
    side = await make();
    data = tempDir('esign-batch-trust-');
    copyFileSync(fixture('contract.pdf'), join(data.dir, 'contract.pdf'));
    spec = write(
      'spec.json',
      JSON.stringify({
        label: 'Offer for {{name}}',
        is_test: false,
        tags: ['{{region}}', 'offer'],
        documents: [{ key: 'o', file_path: 'contract.pdf', fields: [SIG] }],
        packets: [{ key: 'signer', name: '{{name}}', email: '{{email}}' }],
      }),
    );
  });
  afterAll(async () => {
    await side.close();
    data.cleanup();
  });

  it("applies the spec's tags and a tags column to every Bundle", async () => {
    const csv = write(
      'tags.csv',
      'name,email,region,tags,custom_key\nAda,ada@example.com,north,vip;q4,T-1\nBob,bob@example.com,south,,T-2\n',
    );
    const r = await esign(['batch', 'send', csv, '--spec', spec, '--yes', '--live', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 2, failed: 0 });
    // A tags column replaces the spec's tags member, as any member column does.
    expect((await byKey('T-1'))[0]!.tags.sort()).toEqual(['q4', 'vip']);
    expect((await byKey('T-2'))[0]!.tags.sort()).toEqual(['offer', 'south']);
  });

  it('reports rows whose custom_key is already on the backend as exists, from any earlier batch, and sends only the rest', async () => {
    const first = write(
      'run1.csv',
      'name,email,region,custom_key\nAda,ada@example.com,n,E0001\nBob,bob@,n,E0002\nCy,cy@example.com,n,E0003\n',
    );
    const results1 = join(data.dir, 'run1.csv.results.csv');
    const r1 = await esign(argv`batch send ${first} --spec ${spec} --yes --live --json --results ${results1}`);
    expect(r1.exitCode).toBe(12);
    expect(JSON.parse(r1.stdout)).toMatchObject({ created: 2, failed: 1 });
    // The failed row keeps its custom_key in the results.
    expect(readFileSync(results1, 'utf8')).toMatch(/^2,E0002,,failed,/m);
    const ada = (await byKey('E0001'))[0]!.id;
    const cy = (await byKey('E0003'))[0]!.id;

    // Row 2 fixed: a new CSV, so a new batch id and a new journal; rows 1 and 3 are still not sent twice.
    const second = write(
      'run2.csv',
      'name,email,region,custom_key\nAda,ada@example.com,n,E0001\nBob,bob@example.com,n,E0002\nCy,cy@example.com,n,E0003\n',
    );
    const results2 = join(data.dir, 'run2.results.jsonl');
    const r2 = await esign(argv`batch send ${second} --spec ${spec} --yes --live --json --results ${results2}`);
    expect(r2.exitCode, r2.stderr).toBe(0);
    expect(JSON.parse(r2.stdout)).toMatchObject({ rows: 3, created: 1, exists: 2, failed: 0 });
    const rows = readFileSync(results2, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.filter((x) => x.status === 'exists').sort((a, b) => a.row - b.row)).toEqual([
      { row: 1, custom_key: 'E0001', bundle_id: ada, status: 'exists', error: '' },
      { row: 3, custom_key: 'E0003', bundle_id: cy, status: 'exists', error: '' },
    ]);
    for (const k of ['E0001', 'E0002', 'E0003']) expect(await byKey(k)).toHaveLength(1);
  });

  it('refuses two rows with one custom_key in check, --dry-run and send, naming both rows', async () => {
    const csv = write(
      'dup.csv',
      'name,email,region,custom_key\nAda,ada@example.com,n,D-1\nBob,bob@example.com,n,D-2\nAda again,ada2@example.com,n,D-1\n',
    );
    const check = await esign(['batch', 'check', csv, '--spec', spec]);
    expect(check.exitCode).toBe(3);
    expect(check.stdout).toBe('row 3, column custom_key: "D-1" is also the key of row 1: each row needs its own');
    const dry = await esign(['batch', 'send', csv, '--spec', spec, '--dry-run', '--json']);
    expect(JSON.parse(dry.stdout)).toMatchObject({ rows: 3, invalid: 1, problems: [{ row: 3, column: 'custom_key' }] });
    // The confirmation counts only the rows it will send, and says the others.
    const ask = await esign(['batch', 'send', csv, '--spec', spec, '--live']);
    expect(ask.exitCode).toBe(2);
    expect(ask.stderr).toMatch(
      /Send 2 Bundles to 2 signers \(1 invalid, not sent: see esign batch check\)\? Pass --yes/,
    );
    const r = await esign(['batch', 'send', csv, '--spec', spec, '--yes', '--live', '--json']);
    expect(r.exitCode).toBe(12);
    expect(JSON.parse(r.stdout)).toMatchObject({
      created: 2,
      failed: 1,
      failures: [{ row: 3, custom_key: 'D-1', error: expect.stringMatching(/also the key of row 1/) }],
    });
    expect(await byKey('D-1')).toHaveLength(1);
    // A spec whose custom_key is one fixed value gives every row the same key: caught the same way.
    const fixed = write(
      'fixed.json',
      JSON.stringify({ ...JSON.parse(readFileSync(spec, 'utf8')), custom_key: 'same' }),
    );
    const two = write('two.csv', 'name,email,region\nA,a@example.com,n\nB,b@example.com,n\n');
    expect((await esign(['batch', 'check', two, '--spec', fixed])).stdout).toBe(
      'row 2, field custom_key: "same" is also the key of row 1: each row needs its own',
    );
  });

  it('check, --dry-run and send refuse a signer without an address alike, before anything is sent', async () => {
    const csv = write('noemail.csv', 'name,email,region,custom_key\nAda,ada@example.com,n,M-1\nNoa,,n,M-2\n');
    const check = await esign(['batch', 'check', csv, '--spec', spec]);
    expect(check.exitCode).toBe(3);
    expect(check.stdout).toBe('row 2, column email: An email address is required to deliver by email.');
    const dry = await esign(['batch', 'send', csv, '--spec', spec, '--dry-run']);
    expect(dry.exitCode).toBe(3);
    expect(dry.stdout).toBe(check.stdout);
    const results = join(data.dir, 'noemail.results.csv');
    const r = await esign(['batch', 'send', csv, '--spec', spec, '--yes', '--live', '--results', results]);
    expect(r.exitCode).toBe(12);
    expect(readFileSync(results, 'utf8')).toMatch(
      /^2,M-2,,failed,column email: An email address is required to deliver by email\.$/m,
    );
    expect(await byKey('M-2')).toHaveLength(0);
  });

  it('refuses a spec member it cannot apply before reading any row', async () => {
    const bad = write('bad.json', JSON.stringify({ ...JSON.parse(readFileSync(spec, 'utf8')), tagz: ['x'] }));
    const csv = write('one.csv', 'name,email,region\nZed,zed@example.com,n\n');
    const before = (await all()).length;
    const r = await esign(['batch', 'send', csv, '--spec', bad, '--yes', '--live']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^esign: --spec .*bad\.json: unknown member "tagz" \(did you mean tags\?\)/);
    expect((await all()).length).toBe(before);
  });

  it('tags Bundles of a Document Template and an Envelope Template batch', async () => {
    // The templates are made on the engine itself (esign local), whichever backend the batch talks to.
    const engineEnv = { ESIGN_DATA_DIR: side.engine.dataDir, ESIGN_BASE_URL: '', ESIGN_API_KEY: '' };
    const template = (await esignIn([...leaseImportArgs(), '-q'], { env: engineEnv })).stdout.trim();
    const envelope = (
      await esignIn(['local', 'envelope-template', 'create', fixture('cli/envelope-spec.json'), '-q'], {
        env: engineEnv,
      })
    ).stdout.trim();
    const csv = write(
      'tpl.csv',
      'tenant.name,tenant.email,landlord.name,landlord.email,tags,custom_key\nTia,tia@example.com,Lou,lou@example.com,lease;2026,L-1\n',
    );
    const r = await esign(['batch', 'send', csv, '--template', template, '--yes', '--live', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await byKey('L-1'))[0]!.tags.sort()).toEqual(['2026', 'lease']);
    const env = write(
      'env.csv',
      'tenant.name,tenant.email,landlord.name,landlord.email,tags,custom_key\nTia,tia@example.com,Lou,lou@example.com,house,V-1\n',
    );
    const r2 = await esignIn(['batch', 'send', env, '--envelope-template', envelope, '--yes', '--live', '--json'], {
      env: side.env,
    });
    expect(r2.exitCode, r2.stderr).toBe(0);
    expect((await byKey('V-1'))[0]!.tags).toEqual(['house']);
  });

  it('sends 20 rows at once when the quota has room for them (no pacing below it)', async () => {
    const csv = write(
      'twenty.csv',
      `name,email,region\n${Array.from({ length: 20 }, (_, i) => `P${i},p${i}@example.com,n`).join('\n')}\n`,
    );
    const r = await esign(['batch', 'send', csv, '--spec', spec, '--yes', '--live', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({ rows: 20, created: 20, failed: 0 });
    if (side.env.ESIGN_BASE_URL)
      expect(s.pacing).toMatch(/^200 per 3600 s \(GET \/rate_limit\/ .*\); 1\d\d at once, the rest paced$/);
    // Paced evenly over the hour, 20 creates took over 5 minutes: past the test's own time.
  }, 120_000);
});

describe('batch send when a tags call fails after the create (esign serve behind a proxy that fails add_tags)', () => {
  let side: CliBackend;
  let proxy: Server;
  let data: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    side = await serve();
    data = tempDir('esign-batch-trust-tags-');
    const target = new URL(side.env.ESIGN_BASE_URL!);
    proxy = createServer((req, res) => {
      if (req.method === 'PUT' && req.url?.endsWith('/add_tags/')) {
        req.resume();
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"code":"error","message":"tags store down"}');
        return;
      }
      const up = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      req.pipe(up);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    proxy.close();
    await side.close();
    data.cleanup();
  });

  it('reports the row incomplete with its Bundle id and how to add the tags, counts it failed, and never sends it again', async () => {
    copyFileSync(fixture('contract.pdf'), join(data.dir, 'contract.pdf'));
    const spec = join(data.dir, 'spec.json');
    writeFileSync(
      spec,
      JSON.stringify({
        is_test: false,
        tags: ['vip'],
        documents: [{ key: 'o', file_path: 'contract.pdf', fields: [SIG] }],
        packets: [{ key: 'signer', name: '{{name}}', email: '{{email}}' }],
      }),
    );
    const csv = join(data.dir, 'rows.csv');
    writeFileSync(csv, 'name,email,custom_key\nAda,ada@example.com,I-1\n');
    const env = { ...side.env, ESIGN_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v2` };
    const results = join(data.dir, 'results.csv');
    const r = await esignIn(['batch', 'send', csv, '--spec', spec, '--yes', '--live', '--json', '--results', results], {
      env,
    });
    expect(r.exitCode).toBe(12);
    const made = (await side.engine.listBundles()).items;
    expect(made).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 0, incomplete: 1, failed: 0 });
    expect(readFileSync(results, 'utf8')).toContain(
      `1,I-1,${made[0]!.id},incomplete,"created, but its tags were not added (esign bundle tags add ${made[0]!.id} vip)`,
    );
    const again = await esignIn(['batch', 'send', csv, '--spec', spec, '--yes', '--live', '--json'], { env });
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, skipped: 1 });
    expect((await side.engine.listBundles()).total).toBe(1);
  });
});

describe('batch send resuming a row whose create was in flight (local engine)', () => {
  it('reports it found and adds its tags (a union: safe if the killed run had added them)', async () => {
    const side = await localBackend();
    const data = tempDir('esign-batch-trust-found-');
    try {
      copyFileSync(fixture('contract.pdf'), join(data.dir, 'contract.pdf'));
      const spec = join(data.dir, 'spec.json');
      writeFileSync(
        spec,
        JSON.stringify({
          tags: ['vip'],
          documents: [{ key: 'o', file_path: 'contract.pdf', fields: [SIG] }],
          packets: [{ key: 'signer', name: '{{name}}', email: '{{email}}' }],
        }),
      );
      const csv = join(data.dir, 'rows.csv');
      writeFileSync(csv, 'name,email\nOne,one@example.com\n');
      // A run killed after row 1's create reached the engine, before its journal said so or its tags went.
      const made = await esignIn(
        argv`bundle create --file ${join(data.dir, 'contract.pdf')} --signer ${'One <one@example.com>'}
          --custom-key fl-1 -q`,
        { env: side.env },
      );
      expect(made.exitCode, made.stderr).toBe(0);
      mkdirSync(join(side.engine.dataDir, 'batches'), { recursive: true, mode: 0o700 });
      const journal = join(side.engine.dataDir, 'batches', 'fl.jsonl');
      writeFileSync(
        journal,
        `${JSON.stringify({ batch: 'fl', csv, source: 'x', backend: 'local', started: new Date().toISOString() })}\n` +
          `${JSON.stringify({ row: 1, key: 'fl-1', s: 'begin', at: '' })}\n`,
        { mode: 0o600 },
      );
      const results = join(data.dir, 'results.jsonl');
      const r = await esignIn(
        ['batch', 'send', csv, '--spec', spec, '--yes', '--batch-id', 'fl', '--json', '--results', results],
        { env: side.env },
      );
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(readFileSync(results, 'utf8'))).toMatchObject({
        row: 1,
        custom_key: 'fl-1',
        bundle_id: made.stdout.trim(),
        status: 'found',
      });
      expect((await side.engine.getBundle(made.stdout.trim())).tags).toEqual(['vip']);
      expect((await side.engine.listBundles()).total).toBe(1);
    } finally {
      await side.close();
      data.cleanup();
    }
  });
});
