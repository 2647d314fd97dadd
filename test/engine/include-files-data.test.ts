// GET /bundles/{slug}/?include=…, and the files and data endpoints: null or 409 until available,
// available early with the early_data / early_files features.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONTRACT_B64, CONTRACT_PDF, bundleRequest, expectApiError } from '../helpers.js';
import { type TestEngine, useEngine, withDocument, withDocuments } from './support.js';

const ctx = useEngine();

const FIELDS = [
  { key: 'ada-sig', kind: 'sig', label: 'Signature', page: 1, x: 1, y: 1, w: 100, h: 20, editors: ['ada'] },
  {
    key: 'start',
    kind: 'dat',
    label: 'Start date',
    format: 'YYYY-MM-DD',
    initial_value: '2025-01-01',
    editors: ['bob'],
  },
];
const create = (e: TestEngine) => e.createBundle(withDocument({ fields: FIELDS }));
const CONTRACT_SHA = createHash('sha256').update(CONTRACT_PDF).digest('hex');

describe('include', () => {
  it('adds nothing when absent or empty', async () => {
    const { e } = ctx;
    const b = await create(e);
    for (const inc of [undefined, '']) {
      const got = await e.getBundle(b.id, inc);
      expect(got).not.toHaveProperty('events');
      expect(got).not.toHaveProperty('data');
      expect(got).not.toHaveProperty('files');
    }
  });

  it('events are always available and match the events endpoint', async () => {
    const { e } = ctx;
    const b = await create(e);
    await e.addBundleTags(b.id, ['x']);
    const got = await e.getBundle(b.id, 'events');
    expect(got.events).toEqual(await e.listBundleEvents(b.id));
    expect(got.events!.map((x) => x.kind)).toEqual(['bc', 'bl', 'ns', 'ns', 'ta']);
    expect(got).not.toHaveProperty('data');
  });

  it('data and files are null while the Bundle is in progress', async () => {
    const { e } = ctx;
    const b = await create(e);
    const got = await e.getBundle(b.id, 'data,events,files');
    expect(got.data).toBeNull();
    expect(got.files).toBeNull();
    expect(Array.isArray(got.events)).toBe(true);
    expect(got.status).toBe('se');
  });

  it('data is an array with early_data (initial values filled by the sender)', async () => {
    const { e } = ctx;
    e.account.setFeatures(['early_data'], true);
    const b = await create(e);
    const got = await e.getBundle(b.id, 'data');
    expect(got.data).toEqual([
      {
        doc_key: 'contract',
        field_key: 'ada-sig',
        label: 'Signature',
        kind: 'sig',
        value: '',
        filled_by: '',
        packet_id: null,
        attachments: [],
      },
      {
        doc_key: 'contract',
        field_key: 'start',
        label: 'Start date',
        kind: 'dat',
        value: '2025-01-01',
        filled_by: 'sender',
        packet_id: null,
        attachments: [],
      },
    ]);
    expect(got).not.toHaveProperty('files');
    expect(await e.getBundleData(b.id)).toEqual(got.data);
  });

  it('files is an array of expiring links with early_files', async () => {
    const { e } = ctx;
    e.account.setFeatures(['early_files'], true);
    const b = await create(e);
    const got = await e.getBundle(b.id, 'files,data');
    expect(got.data).toBeNull();
    expect(got.files).toHaveLength(1);
    const [f] = got.files!;
    expect(f.file_url).toMatch(/^http:\/\/127\.0\.0\.1:8787\/files\/.+\/contract\.pdf$/);
    expect(Date.parse(f.expires)).toBeGreaterThan(e.clock.nowMs());
    expect(f.sha256).toBe(CONTRACT_SHA);
  });

  it('a complete Bundle has data; files only once its documents are final', async () => {
    const { e } = ctx;
    const b = await create(e);
    for (const p of b.packets) await e.signPacket(p.id, {});
    // Complete, with its files still being produced (doc_status pe).
    let got = await e.getBundle(b.id, 'data,files');
    expect([got.status, got.doc_status]).toEqual(['co', 'pe']);
    expect(got.data).toHaveLength(2);
    expect(got.files).toBeNull();
    await e.settle();
    got = await e.getBundle(b.id, 'data,files');
    expect(got.files!.map((f) => f.kind)).toEqual(['signed_pdf', 'combined_pdf', 'coe_pdf', 'coe_pdf']);
  });

  it('accepts spaces and repeated values', async () => {
    const { e } = ctx;
    const b = await create(e);
    const got = await e.getBundle(b.id, 'events, data,events');
    expect(got.events).toBeInstanceOf(Array);
    expect(got.data).toBeNull();
  });

  for (const bad of ['documents', 'events,foo', 'EVENTS', 'data;files']) {
    it(`rejects include=${bad} with an {error} body listing the supported values`, async () => {
      const { e } = ctx;
      const b = await create(e);
      const err = await expectApiError(e.getBundle(b.id, bad), 400);
      expect(err.form).toBe('error');
      expect(err.message).toMatch(/data, events, files/);
      expect(err.toWire()).toEqual({ error: err.message });
    });
  }

  it('names the invalid value in the message', async () => {
    const { e } = ctx;
    const b = await create(e);
    const err = await expectApiError(e.getBundle(b.id, 'events,signers'), 400);
    expect(err.message).toContain('"signers"');
    expect(err.message).not.toContain('"events"');
  });

  it('an unknown Bundle is 404 whatever the include', async () => {
    await expectApiError(ctx.e.getBundle('nope', 'events'), 404, { code: 'not_found' });
  });
});

describe('files and data endpoints', () => {
  it('409 until the Bundle is complete', async () => {
    const { e } = ctx;
    const b = await create(e);
    await expectApiError(e.getBundleFiles(b.id), 409, { code: 'conflict' });
    await expectApiError(e.getBundleData(b.id), 409, { code: 'conflict' });
  });

  it('409 for a draft and for a cancelled Bundle too', async () => {
    const { e } = ctx;
    const draft = await e.createBundle(bundleRequest({ status: 'dr' }));
    const cancelled = await e.createBundle(bundleRequest());
    await e.cancelBundle(cancelled.id);
    for (const id of [draft.id, cancelled.id]) {
      await expectApiError(e.getBundleFiles(id), 409);
      await expectApiError(e.getBundleData(id), 409);
    }
  });

  it('ready once complete with final documents', async () => {
    const { e } = ctx;
    const b = await e.createBundle(
      withDocuments({ key: 'a', file_b64: CONTRACT_B64 }, { key: 'b', file_b64: CONTRACT_B64, filename: 'copy.pdf' }),
    );
    for (const p of b.packets) await e.signPacket(p.id, {});
    await expectApiError(e.getBundleFiles(b.id), 409);
    await e.settle();
    const files = await e.getBundleFiles(b.id);
    expect(files.map((f) => [f.kind, f.doc_key ?? f.packet_id ?? null, f.name])).toEqual([
      ['signed_pdf', 'a', 'a-signed.pdf'],
      ['signed_pdf', 'b', 'copy-signed.pdf'],
      ['combined_pdf', null, `${b.id}-combined.pdf`],
      ['coe_pdf', b.packets[0]!.id, `coe-${b.id}-Ada-Lovelace.pdf`],
      ['coe_pdf', b.packets[1]!.id, `coe-${b.id}-Bob-Example.pdf`],
    ]);
    // The two documents were the same PDF; signed, each names its own document, so they differ.
    expect(new Set(files.map((f) => f.sha256)).size).toBe(5);
    expect(files.every((f) => f.sha256 !== CONTRACT_SHA)).toBe(true);
    expect(new Set(files.map((f) => f.file_url)).size).toBe(5);
    expect(await e.getBundleData(b.id)).toEqual([]);
  });

  it('available early with the features, and 404 for an unknown Bundle', async () => {
    const { e } = ctx;
    e.account.setFeatures(['early_data', 'early_files'], true);
    const b = await create(e);
    expect(await e.getBundleFiles(b.id)).toHaveLength(1);
    expect(await e.getBundleData(b.id)).toHaveLength(2);
    await expectApiError(e.getBundleFiles('missing'), 404);
    await expectApiError(e.getBundleData('missing'), 404);
  });
});

describe('data: field keys', () => {
  it('numbers fields without a key across placed and auto-placed fields, as stored at creation', async () => {
    const { e } = ctx;
    e.account.setFeatures(['early_data'], true);
    const b = await e.createBundle(
      withDocument({
        fields: [
          { kind: 'sig', page: 1, x: 1, y: 1, w: 10, h: 10 },
          { key: 'named', kind: 'inp', page: 1, x: 1, y: 1, w: 10, h: 10 },
        ],
        auto_placements: [{ kind: 'dat', search: 'Date:' }],
      }),
    );
    expect((await e.getBundleData(b.id)).map((d) => d.field_key)).toEqual(['sig-1', 'named', 'dat-3']);
  });
});
