// Envelope Templates on the engine: creating them from a spec, list and get, and Bundles made
// from them (both creation routes), with packet/role matching and field values.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACT_B64, expectApiError, fixture } from '../helpers.js';
import { type TestEngine, useEngine, storedFields } from './support.js';

const t = useEngine();
const SPEC_PATH = fixture('templates/envelope-template.json');
const SPEC = JSON.parse(readFileSync(SPEC_PATH, 'utf8')) as Record<string, unknown>;
const BASE = dirname(SPEC_PATH);
const NDA_B64 = readFileSync(fixture('nda.pdf')).toString('base64');

const CLIENT = { key: 'client', name: 'Cleo Client', email: 'cleo@example.com', phone: '+15551234567' };
const PROVIDER = { key: 'provider', name: 'Pat Provider', email: 'pat@example.com' };

const specWith = (over: Record<string, unknown>) => ({ ...SPEC, ...over });
const fileDoc = (over: Record<string, unknown> = {}) => ({
  key: 'nda',
  file_b64: NDA_B64,
  fields: [{ key: 'ini', kind: 'ini', page: 2, editors: ['provider'] }],
  ...over,
});

async function saleTemplate(e: TestEngine) {
  return e.importTemplate({
    name: 'Sale',
    pdf: readFileSync(fixture('nda.pdf')),
    roles: [{ key: 'buyer' }, { key: 'seller' }],
    fields: [
      { key: 'price', kind: 'inp', page: 1, editor_roles: ['buyer'], default_value: '10', data_flow_tag: 'price' },
      { key: 'seller-sig', kind: 'sig', page: 2, editor_roles: ['seller'], required: true },
    ],
  });
}

describe('envelope template create, list and get', () => {
  it('creates one from the spec file, with files read relative to it', async () => {
    const et = await t.e.createEnvelopeTemplate(SPEC, BASE);
    expect(et.id).toMatch(/^T-[A-Za-z0-9]{10}$/);
    expect(et).toMatchObject({
      name: 'Services agreement',
      description: 'Client signs first, then the provider countersigns',
      is_shared: false,
      is_portal: false,
      allow_direct_signing: false,
      smart_link_url: '',
      documents: [{ key: 'agreement', name: 'Services agreement', order: 0 }],
      signers: [
        { key: 'client', label: 'Client', order: 0, auth_sms: true, auth_selfie: false, auth_id: false },
        { key: 'provider', label: 'Provider', order: 1, auth_sms: false, auth_selfie: false, auth_id: false },
      ],
    });
    expect(Date.parse(et.created)).not.toBeNaN();
    expect(await t.e.getEnvelopeTemplate(et.id)).toEqual(et);
  });

  it('gives portal templates a smart link', async () => {
    const et = await t.e.createEnvelopeTemplate(
      specWith({ is_portal: true, is_shared: true, allow_direct_signing: true }),
      BASE,
    );
    expect(et).toMatchObject({ is_portal: true, is_shared: true, allow_direct_signing: true });
    expect(et.smart_link_url).toMatch(new RegExp(`/portal/${et.id}/$`));
  });

  it('lists only enabled templates, newest first, in pages', async () => {
    const a = await t.e.createEnvelopeTemplate(specWith({ name: 'A' }), BASE);
    await t.e.createEnvelopeTemplate(specWith({ name: 'off', enabled: false }), BASE);
    const b = await t.e.createEnvelopeTemplate(specWith({ name: 'B' }), BASE);
    const c = await t.e.createEnvelopeTemplate(specWith({ name: 'C' }), BASE);
    const all = await t.e.listEnvelopeTemplates();
    expect(all.items.map((x) => x.name)).toEqual(['C', 'B', 'A']);
    expect(all.total).toBe(3);
    const page2 = await t.e.listEnvelopeTemplates({ page: 2, per_page: 2 });
    expect([page2.total_pages, page2.items.map((x) => x.id)]).toEqual([2, [a.id]]);
    expect((await t.e.listEnvelopeTemplates({ per_page: 2 })).items.map((x) => x.id)).toEqual([c.id, b.id]);
  });

  it('404s an unknown id', async () => {
    await expectApiError(t.e.getEnvelopeTemplate('T-nothere'), 404, { code: 'not_found' });
  });

  const bad: { name: string; spec: () => Record<string, unknown> | Promise<Record<string, unknown>>; field: string }[] =
    [
      { name: 'no name', spec: () => specWith({ name: undefined }), field: 'name' },
      { name: 'no signers', spec: () => specWith({ signers: [] }), field: 'signers' },
      {
        name: 'duplicate signer keys',
        spec: () => specWith({ signers: [{ key: 'client' }, { key: 'client' }] }),
        field: 'signers[1].key',
      },
      { name: 'no documents', spec: () => specWith({ documents: [] }), field: 'documents' },
      { name: 'an unknown member', spec: () => specWith({ colour: 'red' }), field: 'colour' },
      {
        name: 'a missing file',
        spec: () => specWith({ documents: [{ key: 'x', file: 'nope.pdf' }] }),
        field: 'documents[0].file',
      },
      {
        name: 'a file that is not a PDF',
        spec: () => specWith({ documents: [{ key: 'x', file: '../not-a-pdf.txt' }] }),
        field: 'documents[0].file',
      },
      {
        name: 'a document with two sources',
        spec: () => specWith({ documents: [{ key: 'x', file: '../nda.pdf', file_b64: NDA_B64 }] }),
        field: 'documents[0]',
      },
      {
        name: 'duplicate document keys',
        spec: () => specWith({ documents: [fileDoc(), fileDoc()] }),
        field: 'documents[1].key',
      },
      {
        name: 'a field editor that is no signer role',
        spec: () => specWith({ documents: [fileDoc({ fields: [{ kind: 'sig', page: 1, editors: ['zed'] }] })] }),
        field: 'documents[0].fields[0].editors[0]',
      },
      {
        name: 'a field past the last page',
        spec: () => specWith({ documents: [fileDoc({ fields: [{ kind: 'sig', page: 3 }] })] }),
        field: 'documents[0].fields[0].page',
      },
      {
        name: 'an unknown Document Template',
        spec: () => specWith({ documents: [{ key: 't', template_id: '11111111-2222-4333-8444-555555555555' }] }),
        field: 'documents[0].template_id',
      },
      {
        name: 'an assignment to a role the template lacks',
        spec: async () =>
          specWith({
            documents: [
              {
                key: 't',
                template_id: (await saleTemplate(t.e)).id,
                assignments: { buyer: 'client', seller: 'provider', notary: 'client' },
              },
            ],
          }),
        field: 'documents[0].assignments[2].role',
      },
      {
        name: 'an assignment to a signer that is no role',
        spec: async () =>
          specWith({
            documents: [
              {
                key: 't',
                template_id: (await saleTemplate(t.e)).id,
                assignments: [
                  { role: 'buyer', signer: 'zed' },
                  { role: 'seller', signer: 'provider' },
                ],
              },
            ],
          }),
        field: 'documents[0].assignments[0].signer',
      },
      {
        name: 'a template role with fields left unassigned',
        spec: async () =>
          specWith({
            documents: [{ key: 't', template_id: (await saleTemplate(t.e)).id, assignments: { buyer: 'client' } }],
          }),
        field: 'documents[0].assignments',
      },
    ];
  it.each(bad)('rejects $name with 400', async ({ spec, field }) => {
    await expectApiError(t.e.createEnvelopeTemplate(await spec(), BASE), 400, { code: 'invalid', field });
    expect((await t.e.listEnvelopeTemplates()).total).toBe(0);
  });
});

describe('Bundles from envelope templates', () => {
  it('creates through createBundleFromEnvelopeTemplate with defaults, role order and authentication', async () => {
    const et = await t.e.createEnvelopeTemplate(SPEC, BASE);
    const b = await t.e.createBundleFromEnvelopeTemplate({
      envelope_template: { template_id: et.id },
      packets: [PROVIDER, CLIENT],
    });
    expect(b).toMatchObject({
      status: 'se',
      label: 'Services agreement',
      email_subject: 'Please sign the services agreement',
      in_order: true,
    });
    expect(b.documents).toEqual([{ key: 'agreement', name: 'Services agreement.pdf' }]);
    const byName = Object.fromEntries(b.packets.map((p) => [p.name, p]));
    expect(byName['Cleo Client']).toMatchObject({ order: 0, auth_sms: true, status: 'se' });
    expect(byName['Pat Provider']).toMatchObject({ order: 1, auth_sms: false, status: 'ne' });
    expect(storedFields(t.e, b.id, 'agreement').map((f) => [f.key, f.editors, f.initial_value])).toEqual([
      ['client-sig', ['client'], undefined],
      ['fee', ['client'], '1000'],
      ['provider-sig', ['provider'], undefined],
    ]);
  });

  it('lets request members override the defaults, and packets add authentication', async () => {
    const et = await t.e.createEnvelopeTemplate(SPEC, BASE);
    const b = await t.e.createBundleFromEnvelopeTemplate({
      label: 'For ACME',
      in_order: false,
      envelope_template: { template_id: et.id },
      packets: [CLIENT, { ...PROVIDER, auth_id: true }],
    });
    expect(b).toMatchObject({
      label: 'For ACME',
      in_order: false,
      email_subject: 'Please sign the services agreement',
    });
    expect(b.packets.map((p) => [p.name, p.auth_id])).toEqual([
      ['Cleo Client', false],
      ['Pat Provider', true],
    ]);
  });

  it('creates through createBundle with envelope_template and no documents', async () => {
    const et = await t.e.createEnvelopeTemplate(SPEC, BASE);
    const b = await t.e.createBundle({
      envelope_template: { template_id: et.id },
      packets: [CLIENT, PROVIDER],
      status: 'dr',
    });
    expect(b).toMatchObject({ status: 'dr', label: 'Services agreement', documents: [{ key: 'agreement' }] });
    await expectApiError(
      t.e.createBundle({
        envelope_template: { template_id: et.id },
        packets: [CLIENT, PROVIDER],
        documents: [{ file_b64: CONTRACT_B64 }],
      }),
      400,
      { field: 'envelope_template' },
    );
  });

  it('applies field_values by key across file and Document Template documents', async () => {
    const tpl = await saleTemplate(t.e);
    const et = await t.e.createEnvelopeTemplate(
      specWith({
        documents: [
          ...(SPEC.documents as unknown[]),
          { key: 'sale', template_id: tpl.id, assignments: { buyer: 'client', seller: 'provider' } },
        ],
      }),
      BASE,
    );
    expect(et.documents).toEqual([
      { key: 'agreement', name: 'Services agreement', order: 0 },
      { key: 'sale', name: 'Sale', order: 1 },
    ]);
    const b = await t.e.createBundleFromEnvelopeTemplate({
      envelope_template: {
        template_id: et.id,
        field_values: [
          { key: 'fee', initial_value: 1500 },
          { key: 'price', initial_value: '77' },
        ],
      },
      packets: [CLIENT, PROVIDER],
    });
    expect(b.template).toBe(tpl.id);
    expect(b.documents).toEqual([
      { key: 'agreement', name: 'Services agreement.pdf' },
      { template_id: tpl.id, key: 'sale', name: 'Sale.pdf' },
    ]);
    expect(storedFields(t.e, b.id, 'agreement').find((f) => f.key === 'fee')!.initial_value).toBe(1500);
    expect(storedFields(t.e, b.id, 'sale').map((f) => [f.key, f.editors, f.initial_value])).toEqual([
      ['price', ['client'], '77'],
      ['seller-sig', ['provider'], undefined],
    ]);
    expect((await t.e.listBundles({ template: tpl.id })).items.map((x) => x.id)).toEqual([b.id]);
  });

  it('signs a Bundle made from an envelope template to completion', async () => {
    const et = await t.e.createEnvelopeTemplate(SPEC, BASE);
    const b = await t.e.createBundleFromEnvelopeTemplate({
      envelope_template: { template_id: et.id, field_values: [{ key: 'fee', initial_value: 1200 }] },
      packets: [CLIENT, PROVIDER],
    });
    const client = b.packets.find((p) => p.name === 'Cleo Client')!;
    const provider = b.packets.find((p) => p.name === 'Pat Provider')!;
    await t.e.signPacket(client.id, {});
    await t.e.signPacket(provider.id, {});
    await t.e.settle();
    expect((await t.e.getBundle(b.id)).status).toBe('co');
    const data = Object.fromEntries((await t.e.getBundleData(b.id)).map((d) => [d.field_key, d.value]));
    expect(data).toMatchObject({ fee: '1200', 'client-sig': 'Cleo Client', 'provider-sig': 'Pat Provider' });
  });

  const errors: { name: string; body: (id: string) => Record<string, unknown>; field: string }[] = [
    {
      name: 'an unknown envelope template',
      body: () => ({ envelope_template: { template_id: 'T-missing' }, packets: [CLIENT, PROVIDER] }),
      field: 'envelope_template.template_id',
    },
    {
      name: 'a signer role without a packet',
      body: (id) => ({ envelope_template: { template_id: id }, packets: [CLIENT] }),
      field: 'packets',
    },
    {
      name: 'a packet whose key is no signer role',
      body: (id) => ({
        envelope_template: { template_id: id },
        packets: [CLIENT, PROVIDER, { key: 'witness', name: 'W', email: 'w@example.com' }],
      }),
      field: 'packets[2].key',
    },
    {
      name: 'a packet without a key',
      body: (id) => ({
        envelope_template: { template_id: id },
        packets: [CLIENT, { name: 'P', email: 'p@example.com' }],
      }),
      field: 'packets[1].key',
    },
    {
      name: 'an unknown field_values key',
      body: (id) => ({
        envelope_template: {
          template_id: id,
          field_values: [
            { key: 'fee', initial_value: 1 },
            { key: 'colour', initial_value: 'red' },
          ],
        },
        packets: [CLIENT, PROVIDER],
      }),
      field: 'envelope_template.field_values[1].key',
    },
    { name: 'no envelope_template', body: () => ({ packets: [CLIENT, PROVIDER] }), field: 'envelope_template' },
    {
      name: 'a packet that cannot be delivered (auth_sms without phone)',
      body: (id) => ({ envelope_template: { template_id: id }, packets: [{ ...CLIENT, phone: undefined }, PROVIDER] }),
      field: 'packets[0].phone',
    },
  ];
  it.each(errors)('rejects $name with 400', async ({ body, field }) => {
    const et = await t.e.createEnvelopeTemplate(SPEC, BASE);
    await expectApiError(t.e.createBundleFromEnvelopeTemplate(body(et.id)), 400, { code: 'invalid', field });
    expect((await t.e.listBundles()).total).toBe(0);
  });

  it('refuses a disabled envelope template', async () => {
    const et = await t.e.createEnvelopeTemplate(specWith({ enabled: false }), BASE);
    expect((await t.e.getEnvelopeTemplate(et.id)).id).toBe(et.id);
    await expectApiError(
      t.e.createBundleFromEnvelopeTemplate({ envelope_template: { template_id: et.id }, packets: [CLIENT, PROVIDER] }),
      400,
      { field: 'envelope_template.template_id', message: /disabled/ },
    );
  });
});
