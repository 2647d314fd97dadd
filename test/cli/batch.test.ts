// esign batch, in-process on a real engine: CSV edge cases, every source, check errors by row and
// column, the journal (skip, resume, in-flight lookups), results files and exit codes.
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, leaseImportArgs, tempDir, argv } from '../helpers.js';
import { esignIn } from './inProcess.js';

let data: ReturnType<typeof tempDir>;
let env: Record<string, string>;
const esign = (args: string[], o: Parameters<typeof esignIn>[1] = {}) => esignIn(args, { env, ...o });
const write = (name: string, text: string) => {
  const p = join(data.dir, name);
  writeFileSync(p, text);
  return p;
};
const SPEC = {
  label: 'NDA for {{name}}',
  documents: [
    {
      key: 'nda',
      file_path: '{{file}}',
      fields: [{ kind: 'sig', key: 's1', editors: ['signer'], page: 1, x: 10, y: 10, w: 100, h: 30 }],
    },
  ],
  packets: [{ key: 'signer', name: '{{name}}', email: '{{email}}', phone: '{{phone}}' }],
};
let spec = '';

async function bundlesByKey(): Promise<Map<string, string[]>> {
  const r = await esign(['bundle', 'list', '--all', '--per-page', '100', '--json']);
  const m = new Map<string, string[]>();
  for (const b of JSON.parse(r.stdout) as { id: string; custom_key: string }[])
    m.set(b.custom_key, [...(m.get(b.custom_key) ?? []), b.id]);
  return m;
}

beforeAll(() => {
  data = tempDir('esign-batch-');
  env = { ESIGN_DATA_DIR: join(data.dir, 'engine') };
  copyFileSync(fixture('contract.pdf'), join(data.dir, 'contract.pdf'));
  spec = write('spec.json', JSON.stringify(SPEC));
});
afterAll(() => data.cleanup());

describe('esign batch send --spec', () => {
  it('reads quoted commas, embedded newlines and quotes, a BOM and CRLF, and sends each row once', async () => {
    const csv = write(
      'quoted.csv',
      '\uFEFFname,email,file,phone,custom_key\r\n"Smith, Jane",jane@example.com,contract.pdf,,q-1\r\n"Line one\nLine ""two""",two@example.com,contract.pdf,,q-2\r\n',
    );
    const r = await esign(['batch', 'send', csv, '--spec', spec, '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({ rows: 2, created: 2, skipped: 0, failed: 0 });
    const byKey = await bundlesByKey();
    const get = async (key: string) =>
      JSON.parse((await esign(['bundle', 'get', byKey.get(key)![0], '--json'])).stdout);
    expect((await get('q-1')).packets[0].name).toBe('Smith, Jane');
    expect((await get('q-2')).packets[0].name).toBe('Line one\nLine "two"');
    expect((await get('q-2')).label).toBe('NDA for Line one\nLine "two"');

    const again = await esign(['batch', 'send', csv, '--spec', spec, '--yes', '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, skipped: 2 });
    expect((await bundlesByKey()).get('q-1')).toHaveLength(1);
  });

  it('sets BundleRequest members from columns, gives rows without custom_key <batch-id>-<row>, prints ids with -q', async () => {
    const csv = write(
      'members.csv',
      'name,email,file,phone,label,in_order,status,cc_emails\nAda,ada@example.com,contract.pdf,,Offer A,yes,dr,x@example.com;y@example.com\nBob,bob@example.com,contract.pdf,,,false,,\n',
    );
    const r = await esign(['batch', 'send', csv, '--spec', spec, '--yes', '-q', '--batch-id', 'members']);
    expect(r.exitCode, r.stderr).toBe(0);
    const ids = r.stdout.split('\n');
    expect(ids).toHaveLength(2);
    const [a, b] = await Promise.all(
      ids.map(async (id) => JSON.parse((await esign(['bundle', 'get', id, '--json'])).stdout)),
    );
    const ada = [a, b].find((x) => x.custom_key === 'members-1');
    const bob = [a, b].find((x) => x.custom_key === 'members-2');
    expect(ada).toMatchObject({ label: 'Offer A', in_order: true, status: 'dr' });
    expect(bob).toMatchObject({ label: 'NDA for Bob', in_order: false });
    expect(bob.status).not.toBe('dr');
  });

  it('exits 12 when some rows fail, sends the rest, and writes per-row results (CSV)', async () => {
    const csv = write(
      'mixed.csv',
      'name,email,file,phone\nGood,good@example.com,contract.pdf,\nBad,bad@example.com,nope.pdf,\n',
    );
    const results = join(data.dir, 'results.csv');
    const r = await esign(['batch', 'send', csv, '--spec', spec, '--yes', '--results', results]);
    expect(r.exitCode).toBe(12);
    expect(r.stderr).toMatch(/row 2 \([0-9a-f]{12}-2\)|row 2: column file: .*nope\.pdf: no such file/);
    const lines = readFileSync(results, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('row,custom_key,bundle_id,status,error');
    expect(lines.find((l) => l.startsWith('1,'))).toMatch(/^1,[0-9a-f]{12}-1,\w+,created,$/);
    expect(lines.find((l) => l.startsWith('2,'))).toMatch(/failed,.*no such file/);
    const status = await esign(['batch', 'status', r.stdout.match(/^batch\t(\S+)/m)![1], '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({
      sent: 1,
      failed: 1,
      failed_rows: [expect.objectContaining({ row: 2 })],
    });
  });

  it('asks before sending, and needs --yes when not interactive', async () => {
    const csv = write('ask.csv', 'name,email,file,phone\nAsk,ask@example.com,contract.pdf,\n');
    const piped = await esign(['batch', 'send', csv, '--spec', spec]);
    expect(piped.exitCode).toBe(2);
    expect(piped.stderr).toMatch(/Send 1 Bundle to 1 signer\? Pass --yes/);
    const no = await esign(['batch', 'send', csv, '--spec', spec], { answers: { confirm: [false] } });
    expect(no.exitCode).toBe(1);
    expect(
      (await bundlesByKey()).has(`${JSON.parse((await esign(['batch', 'status', '--json'])).stdout)[0].batch}-1`),
    ).toBe(false);
  });

  it('resolves a row whose create was in flight by its custom_key: found ones are not sent again, missing ones are', async () => {
    const csv = write(
      'inflight.csv',
      'name,email,file,phone\nOne,one@example.com,contract.pdf,\nTwo,two@example.com,contract.pdf,\n',
    );
    // A run killed after row 1's create reached the engine, and before row 2's did.
    const made = await esign(argv`bundle create --file ${join(data.dir, 'contract.pdf')}
      --signer ${'One <one@example.com>'} --custom-key flight-1 -q`);
    expect(made.exitCode, made.stderr).toBe(0);
    const journal = join(env.ESIGN_DATA_DIR, 'batches', 'flight.jsonl');
    const first = await esign(['batch', 'status']);
    expect(first.exitCode).toBe(0);
    writeFileSync(
      journal,
      `${JSON.stringify({ batch: 'flight', csv, source: 'x', backend: 'local', started: new Date().toISOString() })}\n`,
      { mode: 0o600 },
    );
    appendFileSync(
      journal,
      `${JSON.stringify({ row: 1, key: 'flight-1', s: 'begin', at: '' })}\n${JSON.stringify({ row: 2, key: 'flight-2', s: 'begin', at: '' })}\n{"row": 2, "key": "fli`,
    );
    const r = await esign(['batch', 'send', csv, '--spec', spec, '--yes', '--batch-id', 'flight', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 1, skipped: 1, failed: 0 });
    const byKey = await bundlesByKey();
    expect(byKey.get('flight-1')).toEqual([made.stdout.trim()]);
    expect(byKey.get('flight-2')).toHaveLength(1);
  });
});

describe('esign batch check', () => {
  it('reports every problem as row N, column X and exits 3, sending nothing', async () => {
    const csv = write(
      'check.csv',
      'name,email,file,phone,is_test,custom_key\nOk,ok@example.com,contract.pdf,,,c-1\nNo mail,not-an-email,contract.pdf,,maybe,c-2\nGone,g@example.com,missing.pdf,,,c-1\n',
    );
    const before = (await bundlesByKey()).size;
    const r = await esign(['batch', 'check', csv, '--spec', spec]);
    expect(r.exitCode).toBe(3);
    expect(r.stdout.split('\n')).toEqual([
      'row 2, column is_test: expected true or false, got "maybe"',
      'row 2, column email: Enter a valid email address.',
      expect.stringMatching(/^row 3, column file: .*missing\.pdf: no such file$/),
      'row 3, column custom_key: "c-1" is also the key of row 1: each row needs its own',
    ]);
    expect(r.stderr).toMatch(/Checked 3 rows: 1 valid, 2 invalid/);
    expect((await bundlesByKey()).size).toBe(before);
    const dry = await esign(['batch', 'send', csv, '--spec', spec, '--dry-run', '--json']);
    expect(dry.exitCode).toBe(3);
    expect(JSON.parse(dry.stdout)).toMatchObject({ rows: 3, valid: 1, invalid: 2 });
  });

  it('names a column that maps to nothing, and a placeholder that names no column', async () => {
    const csv = write('extra.csv', 'name,email,phone,colour\nA,a@example.com,,red\n');
    const r = await esign(['batch', 'check', csv, '--spec', spec]);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toMatch(/^header: the spec's placeholder \{\{file\}\} names no column of the CSV$/m);
    expect(r.stdout).toMatch(/^header, column colour: maps to nothing/m);
  });
});

describe('esign batch with templates', () => {
  let template = '';
  let envelope = '';
  beforeAll(async () => {
    const t = await esign([...leaseImportArgs(), '-q']);
    expect(t.exitCode, t.stderr).toBe(0);
    template = t.stdout.trim();
    const e = await esign(['local', 'envelope-template', 'create', fixture('cli/envelope-spec.json'), '-q']);
    expect(e.exitCode, e.stderr).toBe(0);
    envelope = e.stdout.trim();
  });

  it('csv-template prints the columns each source needs', async () => {
    const r = await esign(['batch', 'csv-template', '--template', template]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(
      'tenant.name,tenant.email,landlord.name,landlord.email,field.tenant_sig,field.rent,field.unit,field.landlord_sig,label,custom_key',
    );
    const e = await esign(['batch', 'csv-template', '--envelope-template', envelope, '--no-example']);
    expect(e.stdout).toBe('tenant.name,tenant.email,landlord.name,landlord.email,label,custom_key');
    // The spec sets label ('NDA for {{name}}'): a label column would override it on every row, so none is offered.
    const s = await esign(['batch', 'csv-template', '--spec', spec]);
    expect(s.stdout.split('\n')[0]).toBe('name,file,email,phone,custom_key');
  });

  it('--template: ROLE.* columns assign roles, field.KEY sets values', async () => {
    const csv = write(
      'tpl.csv',
      'tenant.name,tenant.email,landlord.name,landlord.email,field.rent,label\nTia,tia@example.com,Lou,lou@example.com,1500,Lease 1\n',
    );
    const r = await esign(['batch', 'send', csv, '--template', template, '--yes', '-q']);
    expect(r.exitCode, r.stderr).toBe(0);
    const b = JSON.parse((await esign(['bundle', 'get', r.stdout.trim(), '--json'])).stdout);
    expect(b.label).toBe('Lease 1');
    expect(b.packets.map((p: { name: string }) => p.name).sort()).toEqual(['Lou', 'Tia']);
    expect(b.documents[0].template_id).toBe(template);
    const bad =
      await esign(argv`batch check ${write('tpl-bad.csv', 'tenant.name,tenant.email,owner.email,field.nope\nT,t@example.com,o@example.com,1\n')}
      --template ${template}`);
    expect(bad.exitCode).toBe(3);
    expect(bad.stdout).toMatch(
      /column owner\.email: Document Template .* has no role "owner" \(roles: tenant, landlord\)/,
    );
    expect(bad.stdout).toMatch(/column field\.nope: Document Template .* has no field "nope"/);
  });

  it('--envelope-template: SIGNER.* columns fill its roles', async () => {
    const csv = write(
      'env.csv',
      'tenant.name,tenant.email,landlord.name,landlord.email,custom_key\nTia,tia@example.com,Lou,lou@example.com,env-1\n',
    );
    const r = await esign(['batch', 'send', csv, '--envelope-template', envelope, '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 1 });
    expect((await bundlesByKey()).get('env-1')).toHaveLength(1);
  });
});
