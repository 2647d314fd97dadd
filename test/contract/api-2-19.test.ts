// API 2.19 on the wire (docs/wire.md, from the published clients): the Bundle carries owner_name,
// owner_email and max_reminders; a document's adobe_field_assignments gives the PDF's own form
// fields to signers. (bundle_signer_reassigned: test/contract/wire-fidelity.test.ts, item 5.)
import { describe, expect, it } from 'vitest';
import { loadPdfLib } from '../../src/lazyImport.js';
import { bundleRequest, expectApiError } from '../helpers.js';
import { BACKENDS, useBackend } from './backends.js';

/** A PDF with two required text form fields of its own, `company` and `title`. */
async function formPdf(): Promise<string> {
  const { PDFDocument } = await loadPdfLib();
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  for (const [name, y] of [
    ['company', 600],
    ['title', 500],
  ] as const) {
    const f = doc.getForm().createTextField(name);
    f.enableRequired();
    f.addToPage(page, { x: 72, y, width: 200, height: 20 });
  }
  return Buffer.from(await doc.save()).toString('base64');
}

describe.each(BACKENDS)('API 2.19: $name', ({ make }) => {
  const b = useBackend(make);

  it('a Bundle carries owner_name, owner_email (its owner, else the account owner) and max_reminders', async () => {
    const created = await b.service.createBundle(bundleRequest());
    expect(created).toMatchObject({
      owner: null,
      owner_name: 'Account owner',
      owner_email: 'owner@example.com',
      max_reminders: null,
    });
    expect(await b.service.getBundle(created.id)).toEqual(created);
    const ops = b.engine.account.addUser({ email: 'ops@example.com', name: 'Olive Ops', admin: true, verified: true });
    const owned = await b.service.updateBundle(created.id, { owner: ops.id });
    expect(owned).toMatchObject({ owner: ops.id, owner_name: 'Olive Ops', owner_email: 'ops@example.com' });
    const listed = (await b.service.listBundles()).items.find((x) => x.id === created.id);
    expect(listed).toMatchObject({ owner_name: 'Olive Ops', owner_email: 'ops@example.com', max_reminders: null });
  });

  it('adobe_field_assignments gives each named form field of the PDF to its signer', async () => {
    const file_b64 = await formPdf();
    const created = await b.service.createBundle(
      bundleRequest({
        documents: [{ key: 'form', file_b64, adobe_field_assignments: { company: 'ada', title: 'bob' } }],
      }),
    );
    const [ada, bob] = created.packets;
    // Each signer has exactly their own field to fill: signing without it is refused naming it.
    await expectApiError(b.service.signPacket(ada!.id, {}), 400, { field: 'values.company' });
    await b.service.signPacket(ada!.id, { values: { company: 'Analytical Engines Ltd' } });
    await expectApiError(b.service.signPacket(bob!.id, {}), 400, { field: 'values.title' });
    await b.service.signPacket(bob!.id, { values: { title: 'Director' } });
    expect((await b.service.getBundle(created.id)).status).toBe('co');
  });

  it('refuses a signer key or a field name that is not there, naming the assignment', async () => {
    const file_b64 = await formPdf();
    await expectApiError(
      b.service.createBundle(
        bundleRequest({
          documents: [{ key: 'form', file_b64, adobe_field_assignments: { company: 'zed' } }],
        }),
      ),
      400,
      { field: 'documents[0].adobe_field_assignments.company', message: /"zed" is not the key of a signer/ },
    );
    await expectApiError(
      b.service.createBundle(
        bundleRequest({
          documents: [{ key: 'form', file_b64, adobe_field_assignments: { nope: 'ada' } }],
        }),
      ),
      400,
      {
        field: 'documents[0].adobe_field_assignments.nope',
        message: /no form field "nope" \(its fields: company, title\)/,
      },
    );
    await expectApiError(
      b.service.createBundle(
        bundleRequest({
          documents: [{ key: 'form', file_b64, adobe_field_assignments: ['company'] }],
        }),
      ),
      400,
      { field: 'documents[0].adobe_field_assignments' },
    );
    expect((await b.service.listBundles()).total).toBe(0);
  });
});
