// Signer activity and the whole lifecycle on the engine: view, sign in order, complete, evidence,
// files, data, coe and verify; declines; every signer-side validation rule.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LocalEngine } from '../../src/local/engine.js';
import { CONTRACT_B64, bundleRequest, expectApiError, field } from '../helpers.js';
import { eventKinds, outboxOf, useEngine, withDocument, withField } from './support.js';

const t = useEngine();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The stored file behind a /files/ link of this engine. */
function fileOf(e: LocalEngine, url: string): Buffer {
  const token = new URL(url).pathname.split('/')[2]!;
  const link = e.resolveLink(token, 'file');
  expect(link, `link ${url}`).toBeDefined();
  return readFileSync(e.blobPath(link!.target));
}

const FIELDS = [
  { key: 'sig-ada', kind: 'sig', page: 1, x: 72, y: 600, w: 180, h: 30, editors: ['ada'], required: true },
  field('title', { label: 'Title', required: true }),
  { key: 'agree', kind: 'chk', page: 1, x: 300, y: 560, w: 14, h: 14, editors: ['ada'] },
  { key: 'sig-bob', kind: 'sig', page: 1, x: 300, y: 600, w: 180, h: 30, editors: ['bob'], required: true },
  {
    key: 'id-scan',
    kind: 'att',
    page: 1,
    x: 300,
    y: 650,
    w: 180,
    h: 20,
    editors: ['bob'],
    v_attachment_types: ['pdf', 'png'],
  },
];

describe('signing and the lifecycle', () => {
  it('runs a Bundle from sending to verified evidence, in order', async () => {
    const e = t.e;
    const b = await e.createBundle(
      bundleRequest({
        in_order: true,
        documents: [{ key: 'contract', file_b64: CONTRACT_B64, filename: 'contract.pdf', fields: FIELDS }],
      }),
    );
    const [ada, bob] = b.packets;
    expect([ada!.status, bob!.status]).toEqual(['se', 'ne']);
    await expectApiError(e.signPacket(bob!.id, {}), 409, { message: /turn/ });

    expect((await e.viewPacket(ada!.id)).status).toBe('st');
    expect((await e.getBundle(b.id)).status).toBe('st');
    const signedAda = await e.signPacket(ada!.id, { values: { title: 'CEO', agree: 'yes' } });
    expect(signedAda.status).toBe('co');
    // Bob's turn: his signing request went to the outbox when Ada finished.
    expect(
      outboxOf(e, b.id)
        .filter((m) => m.kind === 'signing_request')
        .map((m) => m.recipient),
    ).toEqual(['ada@example.com', 'bob@example.com']);
    await expectApiError(
      e.signPacket(bob!.id, { attachments: { 'id-scan': [{ name: 'id.jpg', data: Buffer.from('x') }] } }),
      400,
      { field: 'attachments.id-scan[0]' },
    );
    await e.signPacket(bob!.id, {
      attachments: {
        'id-scan': [
          { name: 'id.png', data: Buffer.from('\x89PNG\r\n\x1a\n!', 'latin1') /* a PNG's signature: 9 bytes */ },
        ],
      },
    });
    let done = await e.getBundle(b.id);
    expect(done.status).toBe('co');
    expect(done.completed_at).not.toBeNull();
    await e.settle();
    done = await e.getBundle(b.id);
    expect(done.doc_status).toBe('fi');
    expect(await eventKinds(e, b.id)).toEqual(['bc', 'bl', 'ns', 'pv', 'ps', 'ns', 'pv', 'ps', 'bk', 'fr']);

    const files = await e.getBundleFiles(b.id);
    expect(files.map((f) => f.kind)).toEqual(['signed_pdf', 'combined_pdf', 'coe_pdf', 'coe_pdf']);
    for (const f of files) expect(sha(fileOf(e, f.file_url))).toBe(f.sha256);
    const signed = fileOf(e, files[0]!.file_url);
    expect(signed.subarray(0, 5).toString()).toBe('%PDF-');
    expect(signed.equals(Buffer.from(CONTRACT_B64, 'base64'))).toBe(false);

    const data = await e.getBundleData(b.id);
    const byKey = Object.fromEntries(data.map((d) => [d.field_key, d]));
    expect(byKey.title).toMatchObject({ value: 'CEO', filled_by: 'Ada Lovelace', packet_id: ada!.id });
    expect(byKey.agree!.value).toBe('true');
    expect(byKey['sig-ada']!.value).toBe('Ada Lovelace');
    expect(byKey['id-scan']!.attachments).toMatchObject([
      { name: 'id.png', ext: 'png', size: 9, num: 1, is_image: true },
    ]);
    expect(fileOf(e, byKey['id-scan']!.attachments[0]!.url).toString('latin1')).toBe('\x89PNG\r\n\x1a\n!');

    const coe = await e.getPacketCoe(ada!.id);
    expect(sha(fileOf(e, coe.file_url))).toBe(coe.sha256);

    const match = await e.verify(sha(signed));
    expect(match).toMatchObject({
      status: 'match',
      document_type: 'signed_pdf',
      envelope: { bundle_slug: b.id, status: 'co' },
    });
    expect((await e.verify(coe.sha256)).document_type).toBe('coe_pdf');
    const tampered = Buffer.from(signed);
    tampered[tampered.length - 20] ^= 1;
    expect((await e.verify(sha(tampered))).status).toBe('no_match');
    await expectApiError(e.verify('abc'), 400, { field: 'hash' });

    expect(
      outboxOf(e, b.id)
        .filter((m) => m.kind === 'docs_ready')
        .map((m) => m.recipient)
        .sort(),
    ).toEqual(['ada@example.com', 'bob@example.com']);
    await expectApiError(e.signPacket(ada!.id, {}), 409);
  });

  it('declines: the Bundle is declined, the requester told, and nobody can sign any more', async () => {
    const e = t.e;
    const b = await e.createBundle(bundleRequest());
    const p = await e.declinePacket(b.packets[1]!.id, 'Wrong amount');
    expect(p.status).toBe('ca'); // the wire's packet enum has no "de" (docs/wire.md)
    expect((await e.getBundle(b.id)).status).toBe('de');
    expect((await e.listBundleEvents(b.id)).at(-1)).toMatchObject({
      kind: 'pd',
      description: 'Signer declined: Wrong amount',
    });
    expect(outboxOf(e, b.id).some((m) => m.kind === 'declined' && m.recipient === 'owner@example.com')).toBe(true);
    await expectApiError(e.signPacket(b.packets[0]!.id, {}), 409, { message: /declined/ });
    await expectApiError(e.getPacketCoe(b.packets[0]!.id), 409);
  });

  it('refuses to act on drafts and cancelled Bundles', async () => {
    const e = t.e;
    const draft = await e.createBundle(bundleRequest({ status: 'dr' }));
    await expectApiError(e.viewPacket(draft.packets[0]!.id), 409, { message: /draft/ });
    const sent = await e.createBundle(bundleRequest());
    await e.cancelBundle(sent.id);
    await expectApiError(e.signPacket(sent.packets[0]!.id, {}), 409, { message: /cancelled/ });
  });
});

describe('signer-side validation', () => {
  const sign = async (field: Record<string, unknown>, value: string | undefined, features: string[] = []) => {
    const e = t.e;
    if (features.length) e.account.setFeatures(features, true);
    const b = await e.createBundle(withField({ key: 'f', ...field }));
    const values: Record<string, string> = value === undefined ? {} : { f: value };
    return e.signPacket(b.packets[0]!.id, { values });
  };

  it.each([
    [{ v_pattern: 'email' }, 'not-an-email', /email address/],
    [{ v_pattern: 'bank_routing' }, '123456789', /routing/],
    [{ v_pattern: 'bank_account' }, '12', /bank account/],
    [{ v_pattern: 'letters' }, 'abc1', /letters/],
    [{ v_pattern: 'numbers' }, '12a', /number/],
    [{ v_pattern: 'phone' }, 'call me', /phone/],
    [{ v_pattern: 'ssn' }, '12-345-678', /social security/],
    [{ v_pattern: 'zip_code' }, '1234', /ZIP/],
    [{ v_min: 3 }, 'ab', /at least 3 characters/],
    [{ v_max: 3 }, 'abcd', /at most 3 characters/],
    [{ v_pattern: 'numbers', v_min: 10 }, '9', /at least 10\./],
    [{ v_pattern: 'numbers', v_max: 10 }, '11', /at most 10\./],
    [{ kind: 'dat' }, '31/12/2026', /YYYY-MM-DD/],
    [{ kind: 'dat' }, '2026-02-30', /YYYY-MM-DD/],
    [{ kind: 'chk' }, 'maybe', /true or false/],
    [{ required: true }, '', /needs a value/],
    [{ kind: 'chk', required: true }, 'false', /ticked/],
  ])('refuses %j with %s', async (field, value, message) => {
    await expectApiError(sign(field, value), 400, { field: 'values.f', message });
  });

  it.each([
    [{ v_pattern: 'email' }, 'ada@example.com'],
    [{ v_pattern: 'bank_routing' }, '011000015'],
    [{ v_pattern: 'ssn' }, '123-45-6789'],
    [{ v_pattern: 'numbers', v_min: 1, v_max: 10 }, '7.5'],
    [{ kind: 'dat' }, '2026-12-31'],
    [{ v_min: 2, v_max: 4 }, 'abc'],
  ])('accepts %j with %s', async (field, value) => {
    expect((await sign(field, value)).status).toBe('co');
  });

  it('checks v_regex with RE2 full-match semantics and its message; bounds are then ignored', async () => {
    await expectApiError(
      sign({ v_regex: '[A-Z]{3}-\\d+', v_regex_msg: 'Use a code like ABC-12', v_min: 100 }, 'ABC-12x', [
        'regex_validation',
      ]),
      400,
      { field: 'values.f', message: /Use a code like ABC-12/ },
    );
  });

  it('accepts a v_regex match even when v_min would refuse it', async () => {
    expect((await sign({ v_regex: '[A-Z]{3}-\\d+', v_min: 100 }, 'ABC-12', ['regex_validation'])).status).toBe('co');
  });

  it('refuses values for fields of another signer, unknown fields and the timestamp', async () => {
    const e = t.e;
    const b = await e.createBundle(
      withDocument({
        fields: [
          { key: 'mine', kind: 'inp', page: 1, x: 1, y: 1, w: 10, h: 10, editors: ['ada'] },
          { key: 'theirs', kind: 'inp', page: 1, x: 1, y: 1, w: 10, h: 10, editors: ['bob'] },
          { key: 'when', kind: 'tms', page: 1, x: 1, y: 1, w: 10, h: 10, editors: ['ada'] },
        ],
      }),
    );
    const err = await expectApiError(
      e.signPacket(b.packets[0]!.id, { values: { theirs: 'x', nothing: 'y', when: 'now' } }),
      400,
    );
    expect(err.errors.map((f) => f.field).sort()).toEqual(['values.nothing', 'values.theirs', 'values.when']);
    // Nothing was stored by the refused attempt.
    expect((await e.getPacket(b.packets[0]!.id)).status).toBe('se');
  });

  it('needs an attachment for a required attachment field, of an allowed type', async () => {
    const e = t.e;
    const b = await e.createBundle(withField({ key: 'f', kind: 'att', required: true, v_attachment_types: ['pdf'] }));
    await expectApiError(e.signPacket(b.packets[0]!.id, {}), 400, { field: 'attachments.f', message: /attachment/ });
    await expectApiError(
      e.signPacket(b.packets[0]!.id, { attachments: { f: [{ name: 'a.txt', data: Buffer.from('x') }] } }),
      400,
      { field: 'attachments.f[0]' },
    );
    expect(
      (await e.signPacket(b.packets[0]!.id, { attachments: { f: [{ name: 'a.PDF', data: Buffer.from('%PDF-') }] } }))
        .status,
    ).toBe('co');
  });
});

describe('interim files (PUT files/)', () => {
  it('are feature-gated, made for Bundles in progress, go stale after a signature, and give way to the final files', async () => {
    const e = t.e;
    const b = await e.createBundle(bundleRequest());
    await expectApiError(e.generateInterimFiles(b.id), 403, { code: 'permission_denied' });
    e.account.setFeatures(['interim_files'], true);
    const draft = await e.createBundle(bundleRequest({ status: 'dr' }));
    await expectApiError(e.generateInterimFiles(draft.id), 409);
    await expectApiError(e.getBundleFiles(b.id), 409);

    expect((await e.generateInterimFiles(b.id)).doc_status).toBe('in');
    const interim = await e.getBundleFiles(b.id);
    expect(interim.map((f) => [f.kind, f.doc_key, f.name])).toEqual([
      ['interim_pdf', 'contract', 'contract-interim.pdf'],
    ]);
    expect(fileOf(e, interim[0]!.file_url).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await e.verify(interim[0]!.sha256!)).status).toBe('no_match');

    await e.signPacket(b.packets[0]!.id, {});
    expect((await e.getBundle(b.id)).doc_status).toBe('di');
    await e.signPacket(b.packets[1]!.id, {});
    await e.settle();
    const done = await e.getBundle(b.id);
    expect([done.status, done.doc_status]).toEqual(['co', 'fi']);
    expect((await e.getBundleFiles(b.id)).map((f) => f.kind)).toEqual([
      'signed_pdf',
      'combined_pdf',
      'coe_pdf',
      'coe_pdf',
    ]);
    await expectApiError(e.generateInterimFiles(b.id), 409);
    // An interim copy is never evidence, even of a completed Bundle.
    expect((await e.verify(interim[0]!.sha256!)).status).toBe('no_match');
  });
});

describe('review fixes', () => {
  it('draws values and signatures with line breaks (the files are still produced)', async () => {
    const e = t.e;
    const b = await e.createBundle(
      bundleRequest({
        packets: [{ key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' }],
        documents: [
          {
            key: 'contract',
            file_b64: CONTRACT_B64,
            fields: [
              { key: 'sig', kind: 'sig', page: 1, x: 72, y: 600, w: 180, h: 30, editors: ['ada'] },
              { key: 'note', kind: 'inp', page: 1, x: 72, y: 560, w: 180, h: 20, editors: ['ada'] },
              { key: 'memo', kind: 'txt', page: 1, x: 72, y: 500, w: 180, h: 50, editors: ['ada'] },
            ],
          },
        ],
      }),
    );
    await e.signPacket(b.packets[0]!.id, {
      values: { sig: 'Ada\nLovelace', note: 'one\r\ntwo', memo: 'line 1\nline 2' },
    });
    await e.settle();
    expect((await e.getBundle(b.id)).doc_status).toBe('fi');
  });

  it('stores no attachment from a refused attempt', async () => {
    const e = t.e;
    const b = await e.createBundle(withField({ key: 'f', kind: 'att', v_attachment_types: ['pdf'] }));
    const blobCount = () => (e.db.prepare('SELECT count(*) AS n FROM blobs').get() as { n: number }).n;
    const { readdirSync } = await import('node:fs');
    const files = () => readdirSync(`${e.dataDir}/blobs`, { recursive: true }).length;
    const before = [blobCount(), files()];
    await expectApiError(
      e.signPacket(b.packets[0]!.id, {
        values: { nothing: 'x' },
        attachments: { f: [{ name: 'a.pdf', data: Buffer.from('unique attachment bytes') }] },
      }),
      400,
    );
    expect([blobCount(), files()]).toEqual(before);
  });
});
