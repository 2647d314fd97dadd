// Review findings on Document and Envelope Templates: an envelope template that could never make
// a Bundle, and Data Flow Tag names that are also names of Object.prototype members.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectApiError, fixture } from '../helpers.js';
import { type TestEngine, useEngine, storedFields } from './support.js';

const t = useEngine();
const NDA = readFileSync(fixture('nda.pdf'));
const SIGNERS = [{ key: 'client' }, { key: 'provider' }];
const PACKETS = [
  { key: 'client', name: 'Cleo Client', email: 'cleo@example.com' },
  { key: 'provider', name: 'Pat Provider', email: 'pat@example.com' },
];

async function saleTemplate(e: TestEngine, fields?: unknown[]) {
  return e.importTemplate({
    name: 'Sale',
    pdf: NDA,
    roles: [{ key: 'buyer' }, { key: 'seller' }],
    fields: fields ?? [
      { key: 'price', kind: 'inp', page: 1, editor_roles: ['buyer'] },
      { key: 'seller-sig', kind: 'sig', page: 2, editor_roles: ['seller'] },
    ],
  });
}

describe('envelope templates under review', () => {
  it('refuses a template role assigned twice when the envelope template is made, not on every Bundle later', async () => {
    const tpl = await saleTemplate(t.e);
    const spec = {
      name: 'Twice',
      signers: SIGNERS,
      documents: [
        {
          key: 'sale',
          template_id: tpl.id,
          assignments: [
            { role: 'buyer', signer: 'client' },
            { role: 'buyer', signer: 'provider' },
            { role: 'seller', signer: 'provider' },
          ],
        },
      ],
    };
    await expectApiError(t.e.createEnvelopeTemplate(spec, '.'), 400, {
      field: 'documents[0].assignments[1].role',
      message: /assigned twice/,
    });
    expect((await t.e.listEnvelopeTemplates()).total).toBe(0);
  });

  it('names a file document with a slash in its name as a plain filename', async () => {
    const et = await t.e.createEnvelopeTemplate(
      {
        name: 'Slash',
        signers: SIGNERS,
        documents: [
          {
            key: 'nda',
            name: 'NDA 2024/25',
            file_b64: NDA.toString('base64'),
            fields: [{ kind: 'sig', page: 1, editors: ['client'] }],
          },
        ],
      },
      '.',
    );
    const b = await t.e.createBundleFromEnvelopeTemplate({
      envelope_template: { template_id: et.id },
      packets: PACKETS,
    });
    expect(b.documents).toEqual([{ key: 'nda', name: 'NDA 2024-25.pdf' }]);
  });
});

describe('Data Flow Tags under review', () => {
  it('a tag named like an Object.prototype member takes the default value when tag_values does not name it', async () => {
    const tpl = await saleTemplate(t.e, [
      { key: 'a', kind: 'inp', page: 1, editor_roles: ['buyer'], data_flow_tag: 'constructor', default_value: 'kept' },
      {
        key: 'b',
        kind: 'inp',
        page: 1,
        editor_roles: ['buyer'],
        data_flow_tag: '__proto__',
        default_value: 'also kept',
      },
    ]);
    const b = await t.e.createBundle({
      packets: PACKETS,
      documents: [{ key: 'sale', template_id: tpl.id, assignments: [{ role: 'buyer', signer: 'client' }] }],
      tag_values: { other: 'x' },
    });
    expect(storedFields(t.e, b.id, 'sale').map((f) => [f.key, f.initial_value])).toEqual([
      ['a', 'kept'],
      ['b', 'also kept'],
    ]);
  });
});
