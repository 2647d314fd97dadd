// Document and Envelope Templates on every backend: set up on the engine (templates are made by
// import locally), then driven through the service as a client would.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectApiError, fixture } from '../helpers.js';
import { BACKENDS, useBackend } from './backends.js';

const NDA = readFileSync(fixture('nda.pdf'));
const SPEC_PATH = fixture('templates/envelope-template.json');
const SPEC = JSON.parse(readFileSync(SPEC_PATH, 'utf8')) as Record<string, unknown>;
const PACKETS = [
  { key: 'ann', name: 'Ann Buyer', email: 'ann@example.com' },
  { key: 'sam', name: 'Sam Seller', email: 'sam@example.com' },
];
const CLIENT = { key: 'client', name: 'Cleo Client', email: 'cleo@example.com', phone: '+15551234567' };
const PROVIDER = { key: 'provider', name: 'Pat Provider', email: 'pat@example.com' };

describe.each(BACKENDS)('contract templates: $name', ({ make }) => {
  const b = useBackend(make);

  const importSale = (name: string, metadata: Record<string, string>) =>
    b.engine.importTemplate({
      name,
      pdf: NDA,
      metadata,
      roles: [
        { key: 'buyer', label: 'Buyer' },
        { key: 'seller', label: 'Seller' },
      ],
      fields: [
        {
          key: 'price',
          kind: 'inp',
          page: 1,
          editor_roles: ['buyer'],
          default_value: '100',
          data_flow_tag: 'sale_price',
        },
        { key: 'buyer-sig', kind: 'sig', page: 1, editor_roles: ['buyer'], required: true },
        { key: 'seller-sig', kind: 'sig', page: 2, editor_roles: ['seller'], required: true },
      ],
    });

  it('lists with metadata filters, gets, patches, and deletes Document Templates', async () => {
    const a = await importSale('A', { region: 'emea', tier: 'gold' });
    await importSale('B', { region: 'emea', tier: 'silver' });
    const names = async (metadata?: Record<string, string>) =>
      (await b.service.listTemplates({ metadata })).items.map((x) => x.name);
    expect(await names()).toEqual(['B', 'A']);
    expect(await names({ region: 'emea', tier: 'gold' })).toEqual(['A']);

    const got = await b.service.getTemplate(a.id);
    expect(got).toMatchObject({
      id: a.id,
      name: 'A',
      is_shared: false,
      teams: [],
      roles: [
        { key: 'buyer', label: 'Buyer' },
        { key: 'seller', label: 'Seller' },
      ],
    });
    expect(got.fields.map((f) => f.key)).toEqual(['price', 'buyer-sig', 'seller-sig']);
    expect((await b.download(got.file_url)).equals(NDA)).toBe(true);

    expect((await b.service.updateTemplate(a.id, { metadata: { tier: '', owner: 'ops' } })).metadata).toEqual({
      region: 'emea',
      owner: 'ops',
    });
    await expectApiError(b.service.updateTemplate(a.id, { metadata: {}, name: 'x' }), 400, { field: 'name' });
    await expectApiError(b.service.updateTemplate(a.id, { metadata: { k: 'v'.repeat(501) } }), 400, {
      field: 'metadata.k',
    });
    expect((await b.service.updateTemplate(a.id, { metadata: '' })).metadata).toEqual({});

    await b.service.deleteTemplate(a.id);
    await expectApiError(b.service.getTemplate(a.id), 404, { code: 'not_found' });
    expect(await names()).toEqual(['B']);
  });

  it('creates a Bundle from a Document Template and finds it with the template filter', async () => {
    const tpl = await importSale('Sale', {});
    const created = await b.service.createBundle({
      label: 'sale',
      packets: PACKETS,
      tag_values: { sale_price: 250 },
      documents: [
        {
          key: 'sale',
          template_id: tpl.id,
          assignments: [
            { role: 'buyer', signer: 'ann' },
            { role: 'seller', signer: 'sam' },
          ],
        },
      ],
    });
    expect(created).toMatchObject({
      status: 'se',
      template: tpl.id,
      documents: [{ template_id: tpl.id, key: 'sale', name: 'Sale.pdf' }],
    });
    expect((await b.service.listBundles({ template: tpl.id })).items.map((x) => x.id)).toEqual([created.id]);
    await expectApiError(
      b.service.createBundle({
        packets: PACKETS,
        documents: [{ template_id: tpl.id, assignments: [{ role: 'buyer', signer: 'zed' }] }],
      }),
      400,
      { field: 'documents[0].assignments[0].signer' },
    );

    const [ann, sam] = created.packets;
    await b.service.signPacket(ann!.id, {});
    await b.service.signPacket(sam!.id, {});
    await b.settle();
    const data = Object.fromEntries((await b.service.getBundleData(created.id)).map((d) => [d.field_key, d.value]));
    expect(data).toMatchObject({ price: '250', 'buyer-sig': 'Ann Buyer', 'seller-sig': 'Sam Seller' });
  });

  it('lists and gets Envelope Templates and creates Bundles from them', async () => {
    const et = await b.engine.createEnvelopeTemplate(SPEC, dirname(SPEC_PATH));
    await b.engine.createEnvelopeTemplate({ ...SPEC, name: 'hidden', enabled: false }, dirname(SPEC_PATH));
    expect((await b.service.listEnvelopeTemplates()).items.map((x) => x.id)).toEqual([et.id]);
    expect(await b.service.getEnvelopeTemplate(et.id)).toEqual(et);
    await expectApiError(b.service.getEnvelopeTemplate('T-missing'), 404, { code: 'not_found' });

    const fromRoute = await b.service.createBundleFromEnvelopeTemplate({
      envelope_template: { template_id: et.id, field_values: [{ key: 'fee', initial_value: 1500 }] },
      packets: [CLIENT, PROVIDER],
    });
    expect(fromRoute).toMatchObject({
      status: 'se',
      label: 'Services agreement',
      in_order: true,
      documents: [{ key: 'agreement', name: 'Services agreement.pdf' }],
    });
    expect(fromRoute.packets.map((p) => [p.name, p.order, p.auth_sms])).toEqual([
      ['Cleo Client', 0, true],
      ['Pat Provider', 1, false],
    ]);

    const viaBundles = await b.service.createBundle({
      label: 'override',
      envelope_template: { template_id: et.id },
      packets: [CLIENT, PROVIDER],
    });
    expect(viaBundles).toMatchObject({ label: 'override', documents: [{ key: 'agreement' }] });

    await expectApiError(
      b.service.createBundleFromEnvelopeTemplate({ envelope_template: { template_id: et.id }, packets: [CLIENT] }),
      400,
      { field: 'packets' },
    );
    await expectApiError(
      b.service.createBundleFromEnvelopeTemplate({
        envelope_template: { template_id: et.id, field_values: [{ key: 'nope', initial_value: 1 }] },
        packets: [CLIENT, PROVIDER],
      }),
      400,
      { field: 'envelope_template.field_values[0].key' },
    );
    await expectApiError(
      b.service.createBundleFromEnvelopeTemplate({
        envelope_template: { template_id: 'T-missing' },
        packets: [CLIENT, PROVIDER],
      }),
      400,
      { field: 'envelope_template.template_id' },
    );
  });
});
