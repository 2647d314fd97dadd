// The whole lifecycle on every backend: create, view, sign in order, complete, files, data, coe,
// then verify: the downloaded signed PDF matches and the same file with one byte changed does not.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONTRACT_B64, expectApiError } from '../helpers.js';
import { BACKENDS, useBackend } from './backends.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const REQUEST = {
  label: 'Lifecycle',
  in_order: true,
  cc_emails: ['audit@example.com'],
  packets: [
    { key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
    { key: 'bob', name: 'Bob Example', email: 'bob@example.com' },
  ],
  documents: [
    {
      key: 'contract',
      file_b64: CONTRACT_B64,
      filename: 'contract.pdf',
      fields: [
        { key: 'sig-ada', kind: 'sig', page: 1, x: 72, y: 620, w: 200, h: 36, editors: ['ada'], required: true },
        {
          key: 'title',
          kind: 'inp',
          label: 'Title',
          page: 1,
          x: 72,
          y: 580,
          w: 200,
          h: 20,
          editors: ['ada'],
          required: true,
          v_min: 2,
        },
        { key: 'sig-bob', kind: 'sig', page: 1, x: 320, y: 620, w: 200, h: 36, editors: ['bob'], required: true },
        {
          key: 'id',
          kind: 'att',
          page: 1,
          x: 320,
          y: 680,
          w: 200,
          h: 20,
          editors: ['bob'],
          v_attachment_types: ['png'],
        },
      ],
    },
  ],
};

describe.each(BACKENDS)('lifecycle: $name', ({ make }) => {
  const b = useBackend(make);

  it('signs in order, completes with evidence, and verifies what it produced', async () => {
    const created = await b.service.createBundle(REQUEST);
    const [ada, bob] = created.packets;
    await expectApiError(b.service.signPacket(bob!.id, {}), 409);
    expect((await b.service.viewPacket(ada!.id)).status).toBe('st');
    expect((await b.service.getBundle(created.id)).status).toBe('st');
    await expectApiError(b.service.signPacket(ada!.id, { values: { title: 'X' } }), 400, {
      field: 'values.title',
      message: /at least 2/,
    });
    expect((await b.service.signPacket(ada!.id, { values: { title: 'CEO' } })).status).toBe('co');
    await expectApiError(b.service.getBundleFiles(created.id), 409);
    await b.service.signPacket(bob!.id, {
      attachments: { id: [{ name: 'id.png', data: Buffer.from('\x89PNG\r\n\x1a\n', 'latin1') }] },
    });
    await b.settle();

    const done = await b.service.getBundle(created.id, 'data,events,files');
    expect(done).toMatchObject({ status: 'co', doc_status: 'fi', docs_ready: true });
    expect(done.events!.map((e) => e.kind)).toEqual(['bc', 'bl', 'ns', 'pv', 'ps', 'ns', 'pv', 'ps', 'bk', 'fr']);
    expect(done.data!.find((d) => d.field_key === 'title')).toMatchObject({
      value: 'CEO',
      filled_by: 'Ada Lovelace',
      packet_id: ada!.id,
    });
    const attachment = done.data!.find((d) => d.field_key === 'id')!.attachments[0]!;
    expect((await b.download(attachment.url)).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');

    const files = await b.service.getBundleFiles(created.id);
    expect(files.map((f) => f.kind)).toEqual(['signed_pdf', 'combined_pdf', 'coe_pdf', 'coe_pdf']);
    const signed = await b.download(files[0]!.file_url);
    expect(sha(signed)).toBe(files[0]!.sha256);
    // The port opens the same link as a stream (what `bundle files --download` reads), on either backend.
    const streamed = Buffer.concat((await (await b.service.openFileLink(files[0]!.file_url)).toArray()) as Buffer[]);
    expect(sha(streamed)).toBe(files[0]!.sha256);
    const coe = await b.service.getPacketCoe(bob!.id);
    expect(sha(await b.download(coe.file_url))).toBe(coe.sha256);

    expect(await b.service.verify(sha(signed))).toMatchObject({
      status: 'match',
      document_type: 'signed_pdf',
      signed_at: done.completed_at,
      envelope: { bundle_slug: created.id, status: 'co', sent: done.sent, completed_at: done.completed_at },
    });
    const changed = Buffer.from(signed);
    changed[Math.floor(changed.length / 2)] ^= 0xff;
    expect((await b.service.verify(sha(changed))).status).toBe('no_match');
    await expectApiError(b.service.verify('not-a-hash'), 400, { field: 'hash' });
  });

  it('ends in declined when a signer declines', async () => {
    const created = await b.service.createBundle({ ...REQUEST, in_order: false });
    expect((await b.service.declinePacket(created.packets[1]!.id, 'Not my name')).status).toBe('ca');
    const got = await b.service.getBundle(created.id);
    expect(got.status).toBe('de');
    await expectApiError(b.service.signPacket(created.packets[0]!.id, { values: { title: 'CEO' } }), 409);
    await expectApiError(b.service.getPacketCoe(created.packets[0]!.id), 409);
  });
});
