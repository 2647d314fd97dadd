// Document Templates on the engine: import rules, list and metadata filters, PATCH merge, delete,
// and Bundles made from templates (assignments, initial values, errors, list filter, signing).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TemplateImport } from '../../src/local/templates/templates.js';
import { CONTRACT_B64, expectApiError, fixture } from '../helpers.js';
import { chars, useEngine, storedFields } from './support.js';

const t = useEngine();
const NDA = readFileSync(fixture('nda.pdf')); // two pages
const MISSING = '11111111-2222-4333-8444-555555555555';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const FIELDS = [
  { key: 'buyer-sig', kind: 'sig', page: 1, x: 72, y: 600, w: 180, h: 30, editor_roles: ['buyer'], required: true },
  {
    key: 'price',
    kind: 'inp',
    page: 1,
    x: 72,
    y: 560,
    w: 120,
    h: 20,
    editor_roles: ['buyer'],
    data_flow_tag: 'sale_price',
    default_value: '100',
  },
  {
    key: 'city',
    kind: 'inp',
    page: 2,
    x: 72,
    y: 560,
    w: 120,
    h: 20,
    editor_roles: ['seller'],
    data_flow_tag: 'city',
    default_value: 'Paris',
  },
  { key: 'note', kind: 'inp', page: 2, x: 72, y: 520, w: 120, h: 20, editor_roles: ['seller'], default_value: 'none' },
  { key: 'seller-sig', kind: 'sig', page: 2, x: 300, y: 600, w: 180, h: 30, editor_roles: ['seller'], required: true },
];

function templateInput(over: Partial<Record<keyof TemplateImport, unknown>> = {}): TemplateImport {
  return {
    name: 'Sale agreement',
    pdf: NDA,
    roles: [
      { key: 'buyer', label: 'Buyer' },
      { key: 'seller', label: 'Seller' },
    ],
    fields: FIELDS,
    metadata: { region: 'emea' },
    ...over,
  } as TemplateImport;
}

const withTemplateField = (field: Record<string, unknown>) =>
  templateInput({ fields: [{ kind: 'inp', page: 1, x: 1, y: 1, w: 10, h: 10, ...field }] });

const PACKETS = [
  { key: 'ann', name: 'Ann Buyer', email: 'ann@example.com' },
  { key: 'sam', name: 'Sam Seller', email: 'sam@example.com' },
];
const ASSIGN = [
  { role: 'buyer', signer: 'ann' },
  { role: 'seller', signer: 'sam' },
];

function fromTemplate(templateId: string, doc: Record<string, unknown> = {}, over: Record<string, unknown> = {}) {
  return {
    label: 'from template',
    packets: PACKETS,
    documents: [{ key: 'sale', template_id: templateId, assignments: ASSIGN, ...doc }],
    ...over,
  };
}

describe('template import', () => {
  it('stores the PDF, roles, fields and metadata, and serves them in the API shape', async () => {
    const tpl = await t.e.importTemplate(templateInput({ is_shared: true }));
    expect(tpl.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(tpl).toMatchObject({
      is_shared: true,
      name: 'Sale agreement',
      metadata: { region: 'emea' },
      teams: [],
      roles: [
        { key: 'buyer', label: 'Buyer' },
        { key: 'seller', label: 'Seller' },
      ],
    });
    expect(tpl.fields).toEqual(FIELDS);
    expect(Object.keys(tpl).sort()).toEqual([
      'fields',
      'file_url',
      'id',
      'is_shared',
      'metadata',
      'name',
      'roles',
      'teams',
    ]);
    const token = new URL(tpl.file_url).pathname.split('/')[2]!;
    expect(readFileSync(t.e.blobPath(t.e.resolveLink(token, 'file')!.target)).equals(NDA)).toBe(true);
    expect(await t.e.getTemplate(tpl.id)).toMatchObject({ id: tpl.id, fields: FIELDS });
  });

  it('gives fields without a key one, and roles without a label their key', async () => {
    const tpl = await t.e.importTemplate(
      templateInput({ roles: [{ key: 'buyer' }], fields: [{ kind: 'sig', page: 1, editor_roles: ['buyer'] }] }),
    );
    expect(tpl.roles).toEqual([{ key: 'buyer', label: 'buyer' }]);
    expect(tpl.fields).toEqual([{ key: 'sig-1', kind: 'sig', page: 1, editor_roles: ['buyer'] }]);
  });

  it('names the PDF after its file, cut to the 50-character document filename limit', async () => {
    const long = await t.e.importTemplate(templateInput({ filename: `${chars(60)}.pdf` }));
    expect(new URL(long.file_url).pathname.split('/').pop()).toBe(`${chars(46)}.pdf`);
    const short = await t.e.importTemplate(templateInput({ filename: 'sale-v1.pdf' }));
    const b = await t.e.createBundle(fromTemplate(short.id));
    expect(b.documents[0]!.name).toBe('sale-v1.pdf');
  });

  it('replaces the definition of an existing template and keeps its metadata', async () => {
    const tpl = await t.e.importTemplate(templateInput());
    const { saveTemplate } = await import('../../src/local/templates/templates.js');
    const ctx = (t.e as unknown as { ctx: Parameters<typeof saveTemplate>[0] }).ctx;
    const again = await saveTemplate(
      ctx,
      templateInput({ name: 'Sale v2', pdf: Buffer.from(CONTRACT_B64, 'base64'), fields: [], metadata: undefined }),
      tpl.id,
    );
    expect(again).toMatchObject({ id: tpl.id, name: 'Sale v2', fields: [], metadata: { region: 'emea' } });
    expect((await t.e.listTemplates()).total).toBe(1);
    await expectApiError(saveTemplate(ctx, templateInput(), MISSING), 404, { code: 'not_found' });
  });

  const bad: { name: string; input: () => TemplateImport; field: string; features?: string[] }[] = [
    { name: 'no name', input: () => templateInput({ name: '' }), field: 'name' },
    {
      name: 'a file that is not a PDF',
      input: () => templateInput({ pdf: readFileSync(fixture('not-a-pdf.txt')) }),
      field: 'pdf',
    },
    { name: 'a corrupt PDF', input: () => templateInput({ pdf: readFileSync(fixture('corrupt.pdf')) }), field: 'pdf' },
    {
      name: 'duplicate role keys',
      input: () => templateInput({ roles: [{ key: 'buyer' }, { key: 'buyer' }], fields: [] }),
      field: 'roles[1].key',
    },
    {
      name: 'an editor role the template lacks',
      input: () => withTemplateField({ editor_roles: ['buyer', 'notary'] }),
      field: 'fields[0].editor_roles[1]',
    },
    {
      name: 'editors instead of editor_roles',
      input: () => withTemplateField({ editors: ['buyer'] }),
      field: 'fields[0].editors',
    },
    {
      name: 'initial_value instead of default_value',
      input: () => withTemplateField({ initial_value: 'x' }),
      field: 'fields[0].initial_value',
    },
    {
      name: 'a data_flow_tag with capitals',
      input: () => withTemplateField({ data_flow_tag: 'Sale_Price' }),
      field: 'fields[0].data_flow_tag',
    },
    {
      name: 'a data_flow_tag over 40 characters',
      input: () => withTemplateField({ data_flow_tag: chars(41) }),
      field: 'fields[0].data_flow_tag',
    },
    { name: 'a page past the end of the PDF', input: () => withTemplateField({ page: 3 }), field: 'fields[0].page' },
    {
      name: 'duplicate field keys',
      input: () =>
        templateInput({
          fields: [
            { key: 'f', kind: 'sig' },
            { key: 'f', kind: 'ini' },
          ],
        }),
      field: 'fields[1].key',
    },
    { name: 'an unknown kind', input: () => withTemplateField({ kind: 'zzz' }), field: 'fields[0].kind' },
    {
      name: 'format on a kind other than dat and tms',
      input: () => withTemplateField({ format: 'YYYY' }),
      field: 'fields[0].format',
    },
    {
      name: 'v_regex without the feature',
      input: () => withTemplateField({ v_regex: '^a$' }),
      field: 'fields[0].v_regex',
    },
    {
      name: 'v_regex that is not RE2',
      features: ['regex_validation'],
      input: () => withTemplateField({ v_regex: '(?<=a)b' }),
      field: 'fields[0].v_regex',
    },
    {
      name: 'a metadata value over 500 characters',
      input: () => templateInput({ metadata: { k: chars(501) } }),
      field: 'metadata.k',
    },
    {
      name: 'a metadata value that is not a string',
      input: () => templateInput({ metadata: { k: 5 } }),
      field: 'metadata.k',
    },
    { name: 'a team that does not exist', input: () => templateInput({ teams: [MISSING] }), field: 'teams[0]' },
  ];
  it.each(bad)('rejects $name with 400', async ({ input, field, features }) => {
    if (features) t.e.account.setFeatures(features, true);
    await expectApiError(t.e.importTemplate(input()), 400, { code: 'invalid', field });
    expect((await t.e.listTemplates()).total).toBe(0);
  });

  it('accepts a 500-character metadata value, a 40-character tag and an existing team', async () => {
    const team = t.e.account.addTeam({ name: 'Sales' });
    const tpl = await t.e.importTemplate(
      templateInput({
        metadata: { k: chars(500) },
        teams: [team.id],
        fields: [{ kind: 'inp', data_flow_tag: chars(40) }],
      }),
    );
    expect(tpl.teams).toEqual([team.id]);
    expect(tpl.metadata.k).toHaveLength(500);
  });
});

describe('template list, get, patch and delete', () => {
  it('filters by metadata (ANDed, exact match), newest first, and pages', async () => {
    const a = await t.e.importTemplate(templateInput({ name: 'A', metadata: { region: 'emea', tier: 'gold' } }));
    const b = await t.e.importTemplate(templateInput({ name: 'B', metadata: { region: 'emea', tier: 'silver' } }));
    await t.e.importTemplate(templateInput({ name: 'C', metadata: { region: 'apac', tier: 'gold' } }));
    const names = async (metadata?: Record<string, string>) =>
      (await t.e.listTemplates({ metadata })).items.map((x) => x.name);
    expect(await names()).toEqual(['C', 'B', 'A']);
    expect(await names({ region: 'emea' })).toEqual(['B', 'A']);
    expect(await names({ region: 'emea', tier: 'gold' })).toEqual(['A']);
    expect(await names({ region: 'eme' })).toEqual([]);
    expect(await names({ colour: 'emea' })).toEqual([]);
    const page2 = await t.e.listTemplates({ page: 2, per_page: 2 });
    expect([page2.page, page2.total_pages, page2.per_page, page2.total, page2.items.map((x) => x.id)]).toEqual([
      2,
      2,
      2,
      3,
      [a.id],
    ]);
    await expectApiError(t.e.listTemplates({ page: 3, per_page: 2 }), 404);
    expect((await t.e.listTemplates({ per_page: 1 })).items.map((x) => x.id)).not.toContain(b.id);
  });

  it('merges PATCH metadata: set, update, "" deletes a key, top-level "" wipes all', async () => {
    const tpl = await t.e.importTemplate(templateInput({ metadata: { region: 'emea', owner: 'ops' } }));
    const patched = await t.e.updateTemplate(tpl.id, { metadata: { region: 'apac', tier: 'gold' } });
    expect(patched.metadata).toEqual({ region: 'apac', owner: 'ops', tier: 'gold' });
    expect((await t.e.updateTemplate(tpl.id, { metadata: { owner: '' } })).metadata).toEqual({
      region: 'apac',
      tier: 'gold',
    });
    expect((await t.e.getTemplate(tpl.id)).metadata).toEqual({ region: 'apac', tier: 'gold' });
    expect((await t.e.updateTemplate(tpl.id, { metadata: '' })).metadata).toEqual({});
    expect((await t.e.listTemplates({ metadata: { region: 'apac' } })).total).toBe(0);
  });

  it('rejects PATCH of other members, long values and a missing metadata', async () => {
    const tpl = await t.e.importTemplate(templateInput());
    await expectApiError(t.e.updateTemplate(tpl.id, { metadata: { a: chars(501) } }), 400, { field: 'metadata.a' });
    await expectApiError(t.e.updateTemplate(tpl.id, { metadata: {}, name: 'renamed' }), 400, { field: 'name' });
    await expectApiError(t.e.updateTemplate(tpl.id, { fields: [] }), 400, { field: 'fields' });
    await expectApiError(t.e.updateTemplate(tpl.id, {}), 400, { field: 'metadata' });
    expect(await t.e.getTemplate(tpl.id)).toMatchObject({ name: 'Sale agreement', metadata: { region: 'emea' } });
    await expectApiError(t.e.updateTemplate(MISSING, { metadata: {} }), 404, { code: 'not_found' });
  });

  it('deletes, then 404s; Bundles made from it keep their documents', async () => {
    const tpl = await t.e.importTemplate(templateInput());
    const bundle = await t.e.createBundle(fromTemplate(tpl.id));
    await t.e.deleteTemplate(tpl.id);
    await expectApiError(t.e.getTemplate(tpl.id), 404, { code: 'not_found' });
    await expectApiError(t.e.deleteTemplate(tpl.id), 404, { code: 'not_found' });
    await expectApiError(t.e.getTemplate('not-a-uuid'), 404, { code: 'not_found' });
    expect((await t.e.getBundle(bundle.id)).documents).toEqual([
      { template_id: tpl.id, key: 'sale', name: 'Sale agreement.pdf' },
    ]);
    await expectApiError(t.e.createBundle(fromTemplate(tpl.id)), 400, { field: 'documents[0].template_id' });
  });
});

describe('Bundles from Document Templates', () => {
  it('makes a document with the template PDF and its fields given to the assigned signers', async () => {
    const tpl = await t.e.importTemplate(templateInput());
    const b = await t.e.createBundle(
      fromTemplate(
        tpl.id,
        {},
        {
          documents: [
            { key: 'sale', template_id: tpl.id, assignments: ASSIGN },
            { key: 'extra', file_b64: CONTRACT_B64 },
          ],
        },
      ),
    );
    expect(b.status).toBe('se');
    expect(b.template).toBe(tpl.id);
    expect(b.documents).toEqual([
      { template_id: tpl.id, key: 'sale', name: 'Sale agreement.pdf' },
      { key: 'extra', name: 'extra.pdf' },
    ]);
    const row = t.e.db
      .prepare(
        'SELECT d.sha256, d.state FROM documents d JOIN bundles b ON b.seq = d.bundle_seq WHERE b.id = ? AND d.key = ?',
      )
      .get(b.id, 'sale');
    expect(row).toEqual({ sha256: sha(NDA), state: 'ready' });
    const fields = storedFields(t.e, b.id, 'sale');
    expect(fields.map((f) => [f.key, f.editors])).toEqual([
      ['buyer-sig', ['ann']],
      ['price', ['ann']],
      ['city', ['sam']],
      ['note', ['sam']],
      ['seller-sig', ['sam']],
    ]);
    expect(fields.every((f) => !('editor_roles' in f) && !('default_value' in f) && !('data_flow_tag' in f))).toBe(
      true,
    );
  });

  it('takes initial values from field_values, then tag_values by Data Flow Tag, then defaults', async () => {
    const tpl = await t.e.importTemplate(templateInput());
    const b = await t.e.createBundle(
      fromTemplate(
        tpl.id,
        { field_values: [{ key: 'price', initial_value: 250 }] },
        { tag_values: { sale_price: '999', city: 'Lyon' } },
      ),
    );
    const values = Object.fromEntries(storedFields(t.e, b.id, 'sale').map((f) => [f.key, f.initial_value]));
    expect(values).toEqual({ 'buyer-sig': undefined, price: 250, city: 'Lyon', note: 'none', 'seller-sig': undefined });
    const plain = await t.e.createBundle(fromTemplate(tpl.id));
    expect(storedFields(t.e, plain.id, 'sale').find((f) => f.key === 'city')!.initial_value).toBe('Paris');
  });

  it('gives an unassigned role to the signer with the same key', async () => {
    const tpl = await t.e.importTemplate(templateInput());
    const b = await t.e.createBundle({
      packets: [
        { key: 'buyer', name: 'B', email: 'b@example.com' },
        { key: 'sam', name: 'S', email: 's@example.com' },
      ],
      documents: [{ template_id: tpl.id, assignments: [{ role: 'seller', signer: 'sam' }] }],
    });
    expect(storedFields(t.e, b.id, 'doc-1').find((f) => f.key === 'price')!.editors).toEqual(['buyer']);
  });

  const errors: { name: string; doc: Record<string, unknown>; field: string }[] = [
    { name: 'an unknown template', doc: { template_id: MISSING }, field: 'documents[0].template_id' },
    {
      name: 'a role the template lacks',
      doc: { assignments: [...ASSIGN, { role: 'notary', signer: 'ann' }] },
      field: 'documents[0].assignments[2].role',
    },
    {
      name: 'a signer key not in packets',
      doc: { assignments: [ASSIGN[0], { role: 'seller', signer: 'zed' }] },
      field: 'documents[0].assignments[1].signer',
    },
    {
      name: 'a role with fields and no assignment',
      doc: { assignments: [ASSIGN[0]] },
      field: 'documents[0].assignments',
    },
    {
      name: 'a role assigned twice',
      doc: { assignments: [...ASSIGN, { role: 'buyer', signer: 'sam' }] },
      field: 'documents[0].assignments[2].role',
    },
    {
      name: 'an unknown field key',
      doc: {
        field_values: [
          { key: 'price', initial_value: 1 },
          { key: 'colour', initial_value: 'red' },
        ],
      },
      field: 'documents[0].field_values[1].key',
    },
  ];
  it.each(errors)('rejects $name with 400', async ({ doc, field }) => {
    const tpl = await t.e.importTemplate(templateInput());
    await expectApiError(t.e.createBundle(fromTemplate(tpl.id, doc)), 400, { code: 'invalid', field });
    expect((await t.e.listBundles()).total).toBe(0);
  });

  it('lists only Bundles made from a template with the template filter', async () => {
    const one = await t.e.importTemplate(templateInput({ name: 'One' }));
    const two = await t.e.importTemplate(templateInput({ name: 'Two' }));
    await t.e.createBundle(fromTemplate(one.id, {}, { label: 'from one' }));
    await t.e.createBundle(fromTemplate(two.id, {}, { label: 'from two' }));
    await t.e.createBundle({ label: 'plain', packets: PACKETS, documents: [{ file_b64: CONTRACT_B64 }] });
    const labels = async (template: string) => (await t.e.listBundles({ template })).items.map((x) => x.label);
    expect(await labels(one.id)).toEqual(['from one']);
    expect(await labels(two.id)).toEqual(['from two']);
    expect((await t.e.listBundles()).total).toBe(3);
    // A Bundle with documents from two templates is found under either.
    const both = fromTemplate(one.id, {}, { label: 'from both' });
    both.documents.push({ key: 'second', template_id: two.id, assignments: ASSIGN });
    await t.e.createBundle(both);
    expect(await labels(two.id)).toEqual(['from both', 'from two']);
    // Two documents from one template count their Bundle once; a deleted draft leaves the total.
    const twice = fromTemplate(one.id, {}, { label: 'twice', is_draft: true });
    twice.documents.push({ key: 'again', template_id: one.id, assignments: ASSIGN });
    const draft = await t.e.createBundle(twice);
    expect(await t.e.listBundles({ template: one.id })).toMatchObject({
      total: 3,
      items: [{ label: 'twice' }, { label: 'from both' }, { label: 'from one' }],
    });
    await t.e.deleteBundle(draft.id);
    expect(await t.e.listBundles({ template: one.id })).toMatchObject({
      total: 2,
      items: [{ label: 'from both' }, { label: 'from one' }],
    });
    expect(t.e.db.prepare('SELECT template_id, n FROM bundle_template_counts WHERE n <> 0 ORDER BY 1').all()).toEqual(
      t.e.db
        .prepare(
          'SELECT template_id, count(DISTINCT bundle_seq) AS n FROM documents WHERE template_id IS NOT NULL GROUP BY 1 ORDER BY 1',
        )
        .all(),
    );
  });

  it('signs a Bundle made from a template to completion, with template values in its data', async () => {
    const tpl = await t.e.importTemplate(templateInput());
    const b = await t.e.createBundle(fromTemplate(tpl.id, {}, { in_order: true, tag_values: { city: 'Lyon' } }));
    const [ann, sam] = b.packets;
    await expectApiError(t.e.signPacket(ann!.id, { values: { city: 'Rome' } }), 400, { field: 'values.city' });
    expect((await t.e.signPacket(ann!.id, { values: { price: '300' } })).status).toBe('co');
    expect((await t.e.signPacket(sam!.id, {})).status).toBe('co');
    await t.e.settle();
    const done = await t.e.getBundle(b.id);
    expect([done.status, done.doc_status]).toEqual(['co', 'fi']);
    const data = Object.fromEntries((await t.e.getBundleData(b.id)).map((d) => [d.field_key, d]));
    expect(data.price).toMatchObject({ value: '300', filled_by: 'Ann Buyer' });
    expect(data.city).toMatchObject({ value: 'Lyon' });
    expect(data['seller-sig']).toMatchObject({ value: 'Sam Seller', packet_id: sam!.id });
    const files = await t.e.getBundleFiles(b.id);
    expect(files.map((f) => f.kind)).toContain('signed_pdf');
  });
});
