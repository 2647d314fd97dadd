// One suite, every backend: a behaviour that passes one and fails the other is a bug in the wire.
import { describe, expect, it } from 'vitest';
import { CONTRACT_PDF, bundleRequest, expectApiError } from '../helpers.js';
import { BACKENDS, useBackend } from './backends.js';

describe.each(BACKENDS)('contract: $name', ({ make }) => {
  const b = useBackend(make);

  it('creates and launches a Bundle from JSON, with its audit trail', async () => {
    const created = await b.service.createBundle(bundleRequest({ label: 'contract', custom_key: 'k-1' }));
    expect(created).toMatchObject({
      status: 'se',
      label: 'contract',
      custom_key: 'k-1',
      documents: [{ key: 'contract', name: 'contract.pdf' }],
    });
    expect(created.packets.map((p) => p.status)).toEqual(['se', 'se']);
    expect((await b.service.listBundleEvents(created.id)).map((e) => e.kind)).toEqual(['bc', 'bl', 'ns', 'ns']);
    expect(await b.service.getBundle(created.id)).toEqual(created);
  });

  it('creates from attached files (multipart on the wire)', async () => {
    const created = await b.service.createBundle(
      {
        packets: [{ name: 'Ann', email: 'ann@example.com' }],
        documents: [
          { key: 'a', file_index: 0 },
          { key: 'b', file_index: 1 },
        ],
      },
      [
        { filename: 'one.pdf', data: CONTRACT_PDF },
        { filename: 'two.pdf', data: CONTRACT_PDF },
      ],
    );
    expect(created.documents).toEqual([
      { key: 'a', name: 'one.pdf' },
      { key: 'b', name: 'two.pdf' },
    ]);
    await expectApiError(
      b.service.createBundle({ packets: [{ name: 'A', email: 'a@example.com' }], documents: [{ file_index: 2 }] }, [
        { filename: 'x.pdf', data: CONTRACT_PDF },
      ]),
      400,
      { field: 'documents[0].file_index' },
    );
  });

  it('rejects bad input with 400 naming every field', async () => {
    const e = await expectApiError(
      b.service.createBundle(bundleRequest({ email_subject: 's'.repeat(401), custom_key: 'k'.repeat(201) })),
      400,
      { code: 'invalid' },
    );
    expect(e.errors.map((f) => f.field).sort()).toEqual(['custom_key', 'email_subject']);
    await expectApiError(
      b.service.createBundle(bundleRequest({ documents: [{ file_b64: Buffer.from('not a pdf').toString('base64') }] })),
      400,
      { field: 'documents[0].file_b64', message: /not a PDF/ },
    );
  });

  it('pages through a list with the same totals, and 404 past the last page', async () => {
    for (let i = 0; i < 5; i++) await b.service.createBundle(bundleRequest({ label: `p${i}` }));
    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(await b.service.listBundles({ page, per_page: 2 }));
    expect(pages.map((p) => [p.page, p.total_pages, p.per_page, p.total, p.items.map((x) => x.label)])).toEqual([
      [1, 3, 2, 5, ['p4', 'p3']],
      [2, 3, 2, 5, ['p2', 'p1']],
      [3, 3, 2, 5, ['p0']],
    ]);
    await expectApiError(b.service.listBundles({ page: 4, per_page: 2 }), 404, { code: 'not_found' });
    await expectApiError(b.service.listBundles({ ordering: 'label' }), 400, { field: 'ordering' });
  });

  it('filters lists', async () => {
    const draft = await b.service.createBundle(bundleRequest({ label: 'the draft', status: 'dr' }));
    const sent = await b.service.createBundle(
      bundleRequest({ label: 'the sent one', packets: [{ name: 'Zoe Quill', email: 'zoe@example.com' }] }),
    );
    await b.service.addBundleTags(sent.id, ['vip']);
    const labels = async (q: Record<string, string>) => (await b.service.listBundles(q)).items.map((x) => x.label);
    expect(await labels({ status: 'dr' })).toEqual(['the draft']);
    expect(await labels({ status__in: 'dr,se' })).toEqual(['the sent one', 'the draft']);
    expect(await labels({ search: 'zoe@example' })).toEqual(['the sent one']);
    expect(await labels({ tag: 'vip' })).toEqual(['the sent one']);
    expect(await labels({ search: draft.id })).toEqual(['the draft']);
  });

  it('retrieves with include, and refuses an unknown include in the {error} form', async () => {
    const created = await b.service.createBundle(bundleRequest());
    const got = await b.service.getBundle(created.id, 'events,data,files');
    expect(got.events!.map((e) => e.kind)).toEqual(['bc', 'bl', 'ns', 'ns']);
    expect(got.data).toBeNull();
    expect(got.files).toBeNull();
    const e = await expectApiError(b.service.getBundle(created.id, 'events,bogus'), 400, {
      message: /bogus.*data, events, files/,
    });
    expect(e.form).toBe('error');
    b.engine.account.setFeatures(['early_data', 'early_files'], true);
    const early = await b.service.getBundle(created.id, 'data,files');
    expect(early.data).toEqual([]);
    expect(early.files!.map((f) => f.kind)).toEqual(['document']);
  });

  it('runs the draft lifecycle: validate, send, patch, tags, cancel', async () => {
    const d = await b.service.createBundle(bundleRequest({ status: 'dr' }));
    expect(await b.service.validateBundle(d.id)).toEqual({ can_send: true, msg: expect.any(String), n_docs: 1 });
    const patched = await b.service.updateBundle(d.id, { cc_sender: true, reminder_offset: 2 });
    expect(patched).toMatchObject({ cc_sender: true, reminder_offset: 2 });
    await expectApiError(b.service.updateBundle(d.id, { reminder_offset: 31 }), 400, { field: 'reminder_offset' });
    await expectApiError(b.service.updateBundle(d.id, { label: 'nope' }), 400, { field: 'label' });
    expect((await b.service.sendBundle(d.id)).status).toBe('se');
    await expectApiError(b.service.sendBundle(d.id), 400);
    expect((await b.service.addBundleTags(d.id, ['a', 'b', 'a'])).tags).toEqual(['a', 'b']);
    expect((await b.service.removeBundleTags(d.id, ['a', 'zzz'])).tags).toEqual(['b']);
    await expectApiError(b.service.getBundleFiles(d.id), 409, { code: 'conflict' });
    await expectApiError(b.service.getBundleData(d.id), 409);
    expect((await b.service.cancelBundle(d.id)).status).toBe('ca');
    await expectApiError(b.service.cancelBundle(d.id), 409);
    await expectApiError(b.service.updateBundle(d.id, { cc_sender: false }), 400);
  });

  it('works with packets: get, patch, remind, embed URL, coe', async () => {
    const created = await b.service.createBundle(
      bundleRequest({
        packets: [
          { key: 'e', name: 'Em', email: 'em@example.com' },
          { key: 'k', name: 'Kit', email: 'kit@example.com', deliver_via: 'embed' },
        ],
      }),
    );
    const [email, embed] = created.packets;
    expect(await b.service.getPacket(email.id)).toEqual(email);
    expect((await b.service.updatePacket(email.id, { name: 'Emma' })).name).toBe('Emma');
    await expectApiError(b.service.updatePacket(email.id, { deliver_via: 'embed' }), 400, { field: 'deliver_via' });
    await expectApiError(b.service.updatePacket(email.id, { deliver_via: 'phone' }), 400, { field: 'phone' });
    expect((await b.service.remindPacket(email.id)).id).toBe(email.id);
    await expectApiError(b.service.remindPacket(email.id), 400, { message: /once per hour/ });
    await expectApiError(b.service.createEmbedUrl(email.id), 400);
    const url = await b.service.createEmbedUrl(embed.id);
    expect(url.url).toMatch(/\/sign\/[\w-]+$/);
    expect(Date.parse(url.expires)).toBeGreaterThan(Date.now());
    await expectApiError(b.service.getPacketCoe(email.id), 409);
  });

  it('answers 404 for unknown objects of every group', async () => {
    const unknown = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    await expectApiError(b.service.getBundle('missing'), 404, { code: 'not_found' });
    await expectApiError(b.service.getPacket('missing'), 404, { code: 'not_found' });
    await expectApiError(b.service.cancelBundle('missing'), 404);
    await expectApiError(b.service.getTemplate(unknown), 404, { code: 'not_found' });
    await expectApiError(b.service.getEnvelopeTemplate('T-missing'), 404, { code: 'not_found' });
    await expectApiError(b.service.getPerson(unknown), 404, { code: 'not_found' });
    await expectApiError(b.service.getWebhook(unknown), 404, { code: 'not_found' });
    await expectApiError(b.service.getWebhookHeader(unknown), 404, { code: 'not_found' });
    await expectApiError(b.service.getWebhookEvent(unknown), 404, { code: 'not_found' });
    await expectApiError(b.service.getWebhookDelivery(unknown), 404, { code: 'not_found' });
  });
});
