// Document Templates, Envelope Templates and Persons through the CLI, run in-process on a real engine.
import { describe, expect, it } from 'vitest';
import { fixture, leaseImportArgs, argv, useTempDir, kv, tsvRows } from '../helpers.js';
import { esignIn } from './inProcess.js';

const data = useTempDir('esign-cli-tpl-');

function esign(args: string[], opts: { input?: string } = {}) {
  return esignIn(args, { input: opts.input ?? '', env: { ESIGN_DATA_DIR: data.dir, CI: '1' } });
}

describe('esign template', () => {
  let id = '';

  it('imports a PDF as a template with roles, fields and metadata (local template import)', async () => {
    const r = await esign([...leaseImportArgs(), '--metadata', 'dept=sales', '--metadata', 'kind=lease', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const t = JSON.parse(r.stdout);
    id = t.id;
    expect(t.name).toBe('Lease');
    expect(t.roles).toEqual([{ key: 'tenant', label: 'Tenant' }, expect.objectContaining({ key: 'landlord' })]);
    expect(t.fields.map((f: { key: string }) => f.key)).toEqual(['tenant_sig', 'rent', 'unit', 'landlord_sig']);
    expect(t.metadata).toEqual({ dept: 'sales', kind: 'lease' });
  });

  it('refuses an import without a role or with a missing file (usage, exit 2)', async () => {
    const noRole = await esign(['local', 'template', 'import', fixture('contract.pdf'), '--name', 'X']);
    expect(noRole.exitCode).toBe(2);
    expect(noRole.stderr).toContain('--role KEY:LABEL');
    const noFile = await esign(['local', 'template', 'import', 'nowhere.pdf', '--name', 'X', '--role', 'a']);
    expect(noFile.exitCode).toBe(2);
    expect(noFile.stderr).toContain('nowhere.pdf: no such file');
  });

  it('lists templates piped, by metadata filter, with -q; an empty result is success', async () => {
    const rows = tsvRows((await esign(['template', 'list'])).stdout);
    expect(rows).toHaveLength(1);
    expect(rows[0].slice(0, 3)).toEqual([id, 'Lease', 'tenant, landlord']);
    expect(
      (await esign(['template', 'list', '-q', '--metadata', 'dept=sales', '--metadata', 'kind=lease'])).stdout.trim(),
    ).toBe(id);
    const none = await esign(['template', 'list', '--metadata', 'dept=hr']);
    expect(none.exitCode).toBe(0);
    expect(none.stdout).toBe('');
    const bad = await esign(['template', 'list', '--metadata', 'dept']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--metadata expects KEY=VALUE');
  });

  it('gets a template as key/values and as JSON; an unknown id is exit 6', async () => {
    const shown = kv((await esign(['template', 'get', id])).stdout);
    expect(shown.name).toBe('Lease');
    expect(shown.roles).toBe('tenant (Tenant), landlord');
    expect(shown.metadata).toBe('dept=sales, kind=lease');
    expect(JSON.parse((await esign(['template', 'get', id, '--json'])).stdout).id).toBe(id);
    const missing = await esign(['template', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(missing.exitCode).toBe(6);
  });

  it('sets, unsets and clears metadata', async () => {
    const set = await esign(['template', 'metadata', 'set', id, 'region=eu', 'kind=residential lease', '--json']);
    expect(set.exitCode, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout).metadata).toEqual({ dept: 'sales', kind: 'residential lease', region: 'eu' });

    const empty = await esign(['template', 'metadata', 'set', id, 'region=']);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('metadata unset');

    const unset = await esign(['template', 'metadata', 'unset', id, 'region', 'absent', '--json']);
    expect(JSON.parse(unset.stdout).metadata).toEqual({ dept: 'sales', kind: 'residential lease' });

    const refused = await esign(['template', 'metadata', 'clear', id]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(JSON.parse((await esign(['template', 'get', id, '--json'])).stdout).metadata).toEqual({
      dept: 'sales',
      kind: 'residential lease',
    });

    const cleared = await esign(['template', 'metadata', 'clear', id, '-y', '--json']);
    expect(cleared.exitCode, cleared.stderr).toBe(0);
    expect(JSON.parse(cleared.stdout).metadata).toEqual({});
  });

  it('creates a Bundle from the template: roles assigned by email and number, field and tag values', async () => {
    const r = await esign(argv`bundle create --template ${id} --signer ${'Ann Tenant <ann@example.com>'}
      --signer ${'Lee Landlord <lee@example.com>'} --assign tenant=ann@example.com --assign landlord=2
      --value rent=1200 --tag-value unit_no=4B --wait --json`);
    expect(r.exitCode, r.stderr).toBe(0);
    const b = JSON.parse(r.stdout);
    expect(b.documents).toEqual([expect.objectContaining({ template_id: id })]);
    expect(b.packets.map((p: { name: string }) => p.name)).toEqual(['Ann Tenant', 'Lee Landlord']);
    expect(b.tag_values).toEqual({ unit_no: '4B' });
    expect((await esign(['bundle', 'list', '-q', '--template', id])).stdout.trim()).toBe(b.id);
  });

  it('reports a role given to no signer as invalid (exit 3), and --value without a template as usage (exit 2)', async () => {
    const bad = await esign(argv`bundle create --template ${id} --signer ${'Ann <ann@example.com>'}
      --assign janitor=1`);
    expect(bad.exitCode).toBe(3);
    expect(bad.stderr).toContain('janitor');
    const usage = await esign(argv`bundle create --file ${fixture('contract.pdf')}
      --signer ${'Ann <ann@example.com>'} --value a=b`);
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).toContain('--value needs --template or --envelope-template');
  });

  it('prepare: a template session needs its account feature (exit 5), then prints url and expires', async () => {
    const off = await esign(['template', 'prepare', '--template', id]);
    expect(off.exitCode).toBe(5);
    expect(off.stderr).toContain('template_preparation');
    expect((await esign(['local', 'features', 'enable', 'template_preparation'])).exitCode).toBe(0);
    const r = await esign(['template', 'prepare', '--template', id, '--metadata', 'source=cli']);
    expect(r.exitCode, r.stderr).toBe(0);
    const s = kv(r.stdout);
    expect(s.url).toMatch(/^https?:\/\/\S+$/);
    expect(Date.parse(s.expires)).toBeGreaterThan(Date.now());
    expect((await esign(['template', 'prepare', '-q'])).stdout.trim()).toMatch(/^https?:\/\//);
  });

  it('bundle prepare prints a session url; without a document source it is a usage error', async () => {
    const r = await esign(['bundle', 'prepare', '--template', id, '--upload-pdf', '--search-signers', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.url).toMatch(/^https?:\/\//);
    expect(typeof s.expires).toBe('string');
    const none = await esign(['bundle', 'prepare', '--search-signers']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('--upload-pdf, --template ID or --folder ID');
  });

  it('deletes a template only when confirmed', async () => {
    const refused = await esign(['template', 'delete', id]);
    expect(refused.exitCode).toBe(2);
    const r = await esign(['template', 'delete', id, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`Deleted template ${id}.`);
    expect((await esign(['template', 'get', id])).exitCode).toBe(6);
  });
});

describe('esign envelope-template', () => {
  let id = '';

  it('creates one from a spec whose files are relative to it, then lists and gets it', async () => {
    const r = await esign(['local', 'envelope-template', 'create', fixture('cli/envelope-spec.json'), '-q']);
    expect(r.exitCode, r.stderr).toBe(0);
    id = r.stdout.trim();
    expect(id).not.toBe('');
    expect((await esign(['envelope-template', 'list', '-q'])).stdout.trim().split('\n')).toContain(id);
    const shown = kv((await esign(['envelope-template', 'get', id])).stdout);
    expect(shown.name).toBe('Lease pack');
    expect(shown.documents).toBe('rules (House rules)');
    expect(shown['signer 1']).toBe('tenant (Tenant)');
    expect(shown['signer 2']).toBe('landlord (Landlord)');
  });

  it('makes a Bundle: signers take the roles in order, field values fill the documents', async () => {
    const r = await esign(argv`bundle create --envelope-template ${id} --signer ${'Ann <ann@example.com>'}
      --signer ${'Lee <lee@example.com>'} --value unit=4B --label ${'Lease 4B'} --wait --json`);
    expect(r.exitCode, r.stderr).toBe(0);
    const b = JSON.parse(r.stdout);
    expect(b.label).toBe('Lease 4B');
    expect(b.packets.map((p: { email: string }) => p.email)).toEqual(['ann@example.com', 'lee@example.com']);
    expect(b.documents.map((d: { key: string }) => d.key)).toEqual(['rules']);
  });

  it('takes explicit roles (ROLE=Name <email>), and names the roles when the count does not match', async () => {
    const r = await esign(argv`bundle create --envelope-template ${id}
      --signer ${'landlord=Lee <lee@example.com>'} --signer ${'tenant=Ann <ann@example.com>'} --json`);
    expect(r.exitCode, r.stderr).toBe(0);
    const b = JSON.parse(r.stdout);
    // Each packet takes its role's order: the tenant signs first.
    const byOrder = [...b.packets].sort((x: { order: number }, y: { order: number }) => x.order - y.order);
    expect(byOrder.map((p: { name: string }) => p.name)).toEqual(['Ann', 'Lee']);

    const short = await esign(['bundle', 'create', '--envelope-template', id, '--signer', 'Ann <ann@example.com>']);
    expect(short.exitCode).toBe(2);
    expect(short.stderr).toContain('2 signer roles (tenant, landlord)');
  });
});

describe('esign person', () => {
  let id = '';

  it('creates a Person with emails, a phone and metadata; a name is required', async () => {
    const r = await esign(argv`person create --name ${'Grace Hopper'} --email grace@example.com
      --email gh@example.org --phone +15551234567 --metadata crm=42 --json`);
    expect(r.exitCode, r.stderr).toBe(0);
    const p = JSON.parse(r.stdout);
    id = p.id;
    expect(p.name).toBe('Grace Hopper');
    expect(
      p.channels
        .filter((c: { kind: string }) => c.kind === 'em')
        .map((c: { email: string }) => c.email)
        .sort(),
    ).toEqual(['gh@example.org', 'grace@example.com']);
    expect(p.channels.filter((c: { kind: string }) => c.kind === 'mp')).toHaveLength(1);
    expect(p.metadata).toEqual({ crm: '42' });

    const nameless = await esign(['person', 'create', '--email', 'x@example.com']);
    expect(nameless.exitCode).toBe(2);
    expect(nameless.stderr).toContain('--name');
    await esign(['person', 'create', '--name', 'Alan Turing', '--email', 'alan@example.com']);
  });

  it('lists piped and filtered by search and email', async () => {
    const rows = (await esign(['person', 'list'])).stdout.trim().split('\n');
    expect(rows).toHaveLength(2);
    const grace = rows.map((l) => l.split('\t')).find((c) => c[0] === id)!;
    expect(grace[1]).toBe('Grace Hopper');
    expect(grace[3]).toBe('+15551234567');
    expect((await esign(['person', 'list', '-q', '--email', 'gh@example.org'])).stdout.trim()).toBe(id);
    expect((await esign(['person', 'list', '--json', '--search', 'turing'])).stdout).toContain('Alan Turing');
    expect((await esign(['person', 'list', '--search', 'nobody-at-all'])).stdout).toBe('');
  });

  it('updates: rename, add an email, set metadata keeping the other keys', async () => {
    const r = await esign(argv`person update ${id} --name ${'Grace B. Hopper'} --add-email amazing@example.com
      --metadata team=navy --json`);
    expect(r.exitCode, r.stderr).toBe(0);
    const p = JSON.parse(r.stdout);
    expect(p.name).toBe('Grace B. Hopper');
    expect(p.channels.map((c: { email?: string }) => c.email)).toContain('amazing@example.com');
    expect(p.channels).toHaveLength(4);
    expect(p.metadata).toEqual({ crm: '42', team: 'navy' });
    const shown = kv((await esign(['person', 'get', id])).stdout);
    expect(shown.emails.split(', ').sort()).toEqual(['amazing@example.com', 'gh@example.org', 'grace@example.com']);

    const nothing = await esign(['person', 'update', id]);
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toContain('Nothing to change');
  });

  it('replaces the whole Person from a spec with --replace (channels left out are deleted)', async () => {
    const noSpec = await esign(['person', 'update', id, '--replace', '--name', 'X']);
    expect(noSpec.exitCode).toBe(2);
    const r = await esign(['person', 'update', id, '--replace', '-f', fixture('cli/person-replace.json'), '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const p = JSON.parse(r.stdout);
    expect(p.channels).toEqual([expect.objectContaining({ kind: 'em', email: 'grace@navy.example' })]);
    expect(p.metadata).toEqual({ rank: 'admiral' });
  });

  it('deletes only when confirmed; then the Person is gone (exit 6)', async () => {
    expect((await esign(['person', 'delete', id])).exitCode).toBe(2);
    const r = await esign(['person', 'delete', id, '-y', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id, deleted: true });
    const gone = await esign(['person', 'get', id]);
    expect(gone.exitCode).toBe(6);
  });
});
