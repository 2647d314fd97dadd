// Bundle creation: every validation rule of the spec (bad input → 400 naming the field), feature
// gates, test Bundles, document intake, drafts, signing order and suppressed notifications.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AttachedFile } from '../../src/service/types.js';
import { CONTRACT_B64, CONTRACT_PDF, bundleRequest, expectApiError, fixture } from '../helpers.js';
import {
  type TestEngine,
  chars,
  emailOf,
  eventKinds,
  outboxOf,
  useEngine,
  withDocument,
  withField,
  withPacket,
} from './support.js';

const ctx = useEngine();

type Body = Record<string, unknown>;
interface Case {
  name: string;
  body: Body | ((e: TestEngine) => Body);
  field: string;
  features?: string[];
  files?: AttachedFile[];
}

const ONE_PDF: AttachedFile[] = [{ filename: 'contract.pdf', data: CONTRACT_PDF }];
const MISSING_UUID = '00000000-0000-4000-8000-000000000000';
const REDIRECT = 'https://example.com/done';

const rejected: Case[] = [
  // Limits on Bundle members
  {
    name: 'email_subject over 400 characters',
    body: bundleRequest({ email_subject: chars(401) }),
    field: 'email_subject',
  },
  {
    name: 'requester_email over 254 characters',
    body: bundleRequest({ requester_email: emailOf(255) }),
    field: 'requester_email',
  },
  {
    name: 'requester_email that is not an email',
    body: bundleRequest({ requester_email: 'not-an-email' }),
    field: 'requester_email',
  },
  {
    name: 'a cc_emails item over 254 characters',
    body: bundleRequest({ cc_emails: [emailOf(255)] }),
    field: 'cc_emails[0]',
  },
  {
    name: 'a cc_emails item that is not an email',
    body: bundleRequest({ cc_emails: ['ok@example.com', 'nope@'] }),
    field: 'cc_emails[1]',
  },
  { name: 'custom_key over 200 characters', body: bundleRequest({ custom_key: chars(201) }), field: 'custom_key' },
  // Limits on packets
  { name: 'packet email over 254 characters', body: withPacket(0, { email: emailOf(255) }), field: 'packets[0].email' },
  {
    name: 'packet email that is not an email',
    body: withPacket(1, { email: 'bob-at-example.com' }),
    field: 'packets[1].email',
  },
  { name: 'phone over 128 characters', body: withPacket(0, { phone: chars(129, '1') }), field: 'packets[0].phone' },
  {
    name: 'signing_complete_redirect over 400 characters',
    features: ['signing_brands'],
    body: withPacket(0, { signing_complete_redirect: `https://example.com/${chars(400)}` }),
    field: 'packets[0].signing_complete_redirect',
  },
  {
    name: 'signing_complete_redirect without the signing_brands feature',
    body: withPacket(0, { signing_complete_redirect: REDIRECT }),
    field: 'packets[0].signing_complete_redirect',
  },
  { name: 'an empty phone', body: withPacket(0, { phone: '' }), field: 'packets[0].phone' },
  { name: 'a phone without its country code', body: withPacket(0, { phone: '555 0100' }), field: 'packets[0].phone' },
  { name: 'a phone of 16 digits', body: withPacket(0, { phone: '+4420794600181234' }), field: 'packets[0].phone' },
  { name: 'a phone of two digits', body: withPacket(0, { phone: '+12' }), field: 'packets[0].phone' },
  { name: 'a phone in letters', body: withPacket(0, { phone: '1-800-FLOWERS' }), field: 'packets[0].phone' },
  {
    name: 'signing_complete_redirect that is not http(s)',
    features: ['signing_brands'],
    body: withPacket(0, { signing_complete_redirect: 'javascript:alert(1)' }),
    field: 'packets[0].signing_complete_redirect',
  },
  {
    name: 'a tag_values key that is not a Data Flow Tag name',
    body: bundleRequest({ tag_values: { 'Bad Key!': 'x' } }),
    field: 'tag_values.Bad Key!',
  },
  { name: 'kind "apr" on a placed field', body: withField({ kind: 'apr' }), field: 'documents[0].fields[0].kind' },
  // Documents and fields
  {
    name: 'filename over 50 characters',
    body: withDocument({ filename: `${chars(47)}.pdf` }),
    field: 'documents[0].filename',
  },
  {
    name: 'v_regex over 200 characters',
    features: ['regex_validation'],
    body: withField({ v_regex: chars(201) }),
    field: 'documents[0].fields[0].v_regex',
  },
  {
    name: 'v_regex_msg over 200 characters',
    features: ['regex_validation'],
    body: withField({ v_regex: '^a+$', v_regex_msg: chars(201) }),
    field: 'documents[0].fields[0].v_regex_msg',
  },
  {
    name: 'v_regex without the regex_validation feature',
    body: withField({ v_regex: '^[0-9]+$' }),
    field: 'documents[0].fields[0].v_regex',
  },
  {
    name: 'v_regex that is not RE2 (lookbehind)',
    features: ['regex_validation'],
    body: withField({ v_regex: '(?<=a)b' }),
    field: 'documents[0].fields[0].v_regex',
  },
  { name: 'kind "sdt" (retired)', body: withField({ kind: 'sdt' }), field: 'documents[0].fields[0].kind' },
  { name: 'an unknown kind', body: withField({ kind: 'xyz' }), field: 'documents[0].fields[0].kind' },
  {
    name: 'format on a kind other than dat/tms',
    body: withField({ kind: 'inp', format: 'YYYY-MM-DD' }),
    field: 'documents[0].fields[0].format',
  },
  {
    name: 'format on an auto-placement of kind sig',
    body: withDocument({ auto_placements: [{ kind: 'sig', search: 'Signature', format: 'YYYY', editors: ['ada'] }] }),
    field: 'documents[0].auto_placements[0].format',
  },
  {
    name: 'v_pattern together with v_regex',
    features: ['regex_validation'],
    body: withField({ v_pattern: 'email', v_regex: '^.+$' }),
    field: 'documents[0].fields[0].v_pattern',
  },
  {
    name: 'v_regex on an auto-placement without the feature',
    body: withDocument({ auto_placements: [{ kind: 'inp', search: 'Name', v_regex: '^a$', editors: ['ada'] }] }),
    field: 'documents[0].auto_placements[0].v_regex',
  },
  {
    name: 'an unknown v_pattern',
    body: withField({ v_pattern: 'roman_numerals' }),
    field: 'documents[0].fields[0].v_pattern',
  },
  {
    name: 'duplicate field keys in one document',
    body: withDocument({
      fields: [
        { key: 'f', kind: 'sig', editors: ['ada'] },
        { key: 'f', kind: 'ini', editors: ['bob'] },
      ],
    }),
    field: 'documents[0].fields[1].key',
  },
  {
    name: 'duplicate document keys',
    body: bundleRequest({
      documents: [
        { key: 'a', file_b64: CONTRACT_B64 },
        { key: 'a', file_b64: CONTRACT_B64 },
      ],
    }),
    field: 'documents[1].key',
  },
  {
    name: 'a Document Template that does not exist',
    body: bundleRequest({ documents: [{ key: 't', template_id: MISSING_UUID }] }),
    field: 'documents[0].template_id',
  },
  {
    name: 'an Envelope Template that does not exist',
    body: bundleRequest({ documents: undefined, envelope_template: { template_id: 'T-missing' } }),
    field: 'envelope_template.template_id',
  },
  // References to signer keys
  {
    name: 'payment.billed_to naming no signer',
    body: bundleRequest({ payment: { billed_to: 'zed', amount_due: 100 } }),
    field: 'payment.billed_to',
  },
  {
    name: 'converted_pdf_fields_to naming no signer',
    body: withDocument({ converted_pdf_fields_to: 'zed' }),
    field: 'documents[0].converted_pdf_fields_to',
  },
  {
    name: 'a field editor naming no signer',
    body: withField({ editors: ['ada', 'zed'] }),
    field: 'documents[0].fields[0].editors[1]',
  },
  // Packets and documents lists
  { name: 'zero packets', body: bundleRequest({ packets: [] }), field: 'packets' },
  { name: 'no packets member', body: bundleRequest({ packets: undefined }), field: 'packets' },
  { name: 'zero documents', body: bundleRequest({ documents: [] }), field: 'documents' },
  { name: 'no documents member', body: bundleRequest({ documents: undefined }), field: 'documents' },
  {
    name: 'a document with two sources',
    body: withDocument({ file_url: 'https://example.com/a.pdf' }),
    field: 'documents[0]',
  },
  {
    name: 'a document with no source',
    body: bundleRequest({ documents: [{ key: 'contract' }] }),
    field: 'documents[0]',
  },
  {
    name: 'file_index past the attached files',
    files: ONE_PDF,
    body: bundleRequest({ documents: [{ key: 'c', file_index: 1 }] }),
    field: 'documents[0].file_index',
  },
  {
    name: 'file_index with no attached files',
    body: bundleRequest({ documents: [{ key: 'c', file_index: 0 }] }),
    field: 'documents[0].file_index',
  },
  {
    name: 'an office upload without the office_upload feature',
    files: [{ filename: 'contract.docx', data: readFileSync(fixture('contract.docx')) }],
    body: bundleRequest({ documents: [{ key: 'c', file_index: 0 }] }),
    field: 'documents[0].file_index',
  },
  // Teams
  { name: 'team without the teams feature', body: bundleRequest({ team: MISSING_UUID }), field: 'team' },
  {
    name: 'a team that does not exist',
    features: ['teams'],
    body: bundleRequest({ team: MISSING_UUID }),
    field: 'team',
  },
  // Deliverability
  { name: 'deliver_via phone with no phone', body: withPacket(0, { deliver_via: 'phone' }), field: 'packets[0].phone' },
  { name: 'auth_sms with no phone', body: withPacket(1, { auth_sms: true }), field: 'packets[1].phone' },
  {
    name: 'deliver_via email with no email',
    body: withPacket(0, { email: undefined, phone: '+15550100', deliver_via: 'email' }),
    field: 'packets[0].email',
  },
  { name: 'duplicate signer keys', body: withPacket(1, { key: 'ada' }), field: 'packets[1].key' },
  { name: 'an unknown person_id', body: withPacket(0, { person_id: MISSING_UUID }), field: 'packets[0].person_id' },
  // Test Bundles
  {
    name: 'a test Bundle to an address that is no user',
    body: bundleRequest({ is_test: true }),
    field: 'packets[0].email',
  },
  {
    name: 'a test Bundle to an unverified user',
    body: (e) => {
      e.account.addUser({ email: 'new@example.com', verified: false });
      return bundleRequest({ is_test: true, packets: [{ key: 'n', name: 'New', email: 'new@example.com' }] });
    },
    field: 'packets[0].email',
  },
  {
    name: 'a test Bundle delivered by phone',
    body: bundleRequest({
      is_test: true,
      packets: [{ key: 'o', name: 'Owner', phone: '+15550100', deliver_via: 'phone' }],
    }),
    field: 'packets[0].deliver_via',
  },
  // Uploaded bytes
  {
    name: 'file_b64 that is not base64',
    body: withDocument({ file_b64: 'this is *not* base64!' }),
    field: 'documents[0].file_b64',
  },
  {
    name: 'file_b64 that is not a PDF',
    body: withDocument({ file_b64: readFileSync(fixture('not-a-pdf.txt')).toString('base64') }),
    field: 'documents[0].file_b64',
  },
  {
    name: 'file_b64 holding a corrupt PDF',
    body: withDocument({ file_b64: readFileSync(fixture('corrupt.pdf')).toString('base64') }),
    field: 'documents[0].file_b64',
  },
  {
    name: 'file_b64 holding a truncated PDF',
    body: withDocument({ file_b64: CONTRACT_PDF.subarray(0, Math.floor(CONTRACT_PDF.length / 2)).toString('base64') }),
    field: 'documents[0].file_b64',
  },
  { name: 'an empty file_b64', body: withDocument({ file_b64: '' }), field: 'documents[0].file_b64' },
  {
    name: 'the second document holding a corrupt PDF',
    body: bundleRequest({
      documents: [
        { key: 'a', file_b64: CONTRACT_B64 },
        { key: 'b', file_b64: readFileSync(fixture('corrupt.pdf')).toString('base64') },
      ],
    }),
    field: 'documents[1].file_b64',
  },
  {
    name: 'an attached file that is not a PDF',
    files: [{ filename: 'notes.pdf', data: readFileSync(fixture('not-a-pdf.txt')) }],
    body: bundleRequest({ documents: [{ key: 'c', file_index: 0 }] }),
    field: 'documents[0].file_index',
  },
];

const accepted: {
  name: string;
  body: Body | ((e: TestEngine) => Body);
  features?: string[];
  files?: AttachedFile[];
}[] = [
  { name: 'email_subject of exactly 400 characters', body: bundleRequest({ email_subject: chars(400) }) },
  {
    name: 'requester_email and cc_emails of exactly 254 characters',
    body: bundleRequest({ requester_email: emailOf(254), cc_emails: [emailOf(254)] }),
  },
  { name: 'packet email of exactly 254 characters', body: withPacket(0, { email: emailOf(254) }) },
  { name: 'custom_key of exactly 200 characters', body: bundleRequest({ custom_key: chars(200) }) },
  {
    name: 'a phone of 15 digits (E.164: the most), written with separators',
    body: withPacket(0, { phone: '+44 (20) 7946-0018.123' }),
  },
  { name: 'filename of exactly 50 characters', body: withDocument({ filename: `${chars(46)}.pdf` }) },
  {
    name: 'signing_complete_redirect with the signing_brands feature',
    features: ['signing_brands'],
    body: withPacket(0, { signing_complete_redirect: REDIRECT }),
  },
  {
    name: 'v_regex (RE2) and v_regex_msg of 200 characters with the feature',
    features: ['regex_validation'],
    body: withField({ v_regex: `^${chars(198)}$`, v_regex_msg: chars(200) }),
  },
  { name: 'format on kind dat', body: withField({ kind: 'dat', format: 'YYYY-MM-DD' }) },
  { name: 'format on kind tms', body: withField({ kind: 'tms', format: 'YYYY-MM-DD HH:mm' }) },
  { name: 'v_pattern alone', body: withField({ v_pattern: 'email' }) },
  { name: 'payment billed to a signer', body: bundleRequest({ payment: { billed_to: 'bob', amount_due: 100 } }) },
  { name: 'converted_pdf_fields_to naming a signer', body: withDocument({ converted_pdf_fields_to: 'bob' }) },
  {
    name: 'a PDF attached by file_index',
    files: ONE_PDF,
    body: bundleRequest({ documents: [{ key: 'c', file_index: 0 }] }),
  },
  { name: 'base64 with line breaks', body: withDocument({ file_b64: CONTRACT_B64.replace(/(.{76})/g, '$1\n') }) },
  {
    name: 'an existing team with the teams feature',
    features: ['teams'],
    body: (e) => bundleRequest({ team: e.account.addTeam({ name: 'Sales' }).id }),
  },
  { name: 'deliver_via phone with a phone', body: withPacket(0, { deliver_via: 'phone', phone: '+15550100' }) },
  { name: 'auth_sms with a phone', body: withPacket(0, { auth_sms: true, phone: '+15550100' }) },
  {
    name: 'a test Bundle to the verified owner, whatever the case of the address',
    body: bundleRequest({ is_test: true, packets: [{ key: 'o', name: 'Owner', email: 'Owner@ESIGN.local' }] }),
  },
  { name: 'an embedded signer without an email', body: withPacket(0, { email: undefined, deliver_via: 'embed' }) },
  {
    name: 'a test Bundle to the verified owner',
    body: bundleRequest({ is_test: true, packets: [{ key: 'o', name: 'Owner', email: 'owner@esign.local' }] }),
  },
];

describe('create: rejected requests name the field (400 invalid) and create nothing', () => {
  for (const c of rejected) {
    it(c.name, async () => {
      const { e } = ctx;
      if (c.features) e.account.setFeatures(c.features, true);
      const body = typeof c.body === 'function' ? c.body(e) : c.body;
      await expectApiError(e.createBundle(body, c.files), 400, { code: 'invalid', field: c.field });
      expect((await e.listBundles()).total).toBe(0);
      expect(e.outbox()).toEqual([]);
    });
  }

  it('reports every problem of one request at once', async () => {
    const body = withPacket(1, { key: 'ada', email: 'nope' }, bundleRequest({ email_subject: chars(401) }));
    const err = await expectApiError(ctx.e.createBundle(body), 400, { code: 'invalid' });
    expect(err.errors.map((f) => f.field)).toEqual(expect.arrayContaining(['email_subject', 'packets[1].email']));
  });

  it('says why "sdt" is refused', async () => {
    await expectApiError(ctx.e.createBundle(withField({ kind: 'sdt' })), 400, {
      field: 'documents[0].fields[0].kind',
      message: /no longer/,
    });
  });
});

describe('create: accepted requests', () => {
  for (const c of accepted) {
    it(c.name, async () => {
      const { e } = ctx;
      if (c.features) e.account.setFeatures(c.features, true);
      const body = typeof c.body === 'function' ? c.body(e) : c.body;
      const b = await e.createBundle(body, c.files);
      expect(b.status).toBe('se');
      expect((await e.listBundles()).total).toBe(1);
    });
  }

  it('echoes the request members back', async () => {
    const b = await ctx.e.createBundle(
      bundleRequest({
        custom_key: 'crm-1',
        email_subject: 'Sign me',
        cc_emails: ['cc@example.com'],
        payment: { billed_to: 'bob', amount_due: 5 },
      }),
    );
    expect(b).toMatchObject({
      label: 'Test agreement',
      custom_key: 'crm-1',
      email_subject: 'Sign me',
      cc_emails: ['cc@example.com'],
      is_test: false,
      in_order: false,
      payment: { billed_to: 'bob', amount_due: 5, payment_method_types: [] },
      documents: [{ key: 'contract', name: 'contract.pdf' }],
    });
    expect(b.packets.map((p) => [p.name, p.email])).toEqual([
      ['Ada Lovelace', 'ada@example.com'],
      ['Bob Example', 'bob@example.com'],
    ]);
  });

  it('takes requester defaults from the team, then from the account', async () => {
    const { e } = ctx;
    e.account.setFeatures(['teams'], true);
    const team = e.account.addTeam({
      name: 'Sales',
      requester_name: 'Sales desk',
      requester_email: 'sales@example.com',
    });
    const withTeam = await e.createBundle(bundleRequest({ team: team.id }));
    expect(withTeam).toMatchObject({
      team: team.id,
      requester_name: 'Sales desk',
      requester_email: 'sales@example.com',
    });
    const plain = await e.createBundle(bundleRequest());
    expect(plain).toMatchObject({ team: null, requester_email: 'owner@esign.local' });
    const own = await e.createBundle(bundleRequest({ team: team.id, requester_email: 'me@example.com' }));
    expect(own.requester_email).toBe('me@example.com');
  });

  it('names a document attached by file_index after the file, unless filename is given', async () => {
    const files: AttachedFile[] = [
      { filename: 'lease.pdf', data: CONTRACT_PDF },
      { filename: 'other.pdf', data: CONTRACT_PDF },
    ];
    const b = await ctx.e.createBundle(
      bundleRequest({
        documents: [
          { key: 'a', file_index: 0 },
          { key: 'b', file_index: 1, filename: 'renamed.pdf' },
        ],
      }),
      files,
    );
    expect(b.documents.map((d) => d.name)).toEqual(['lease.pdf', 'renamed.pdf']);
  });

  it('accepts an office upload with the feature on: pending while LibreOffice converts it (test/engine/intake.test.ts)', async () => {
    ctx.e.account.setFeatures(['office_upload'], true);
    const files = [{ filename: 'contract.docx', data: readFileSync(fixture('contract.docx')) }];
    const b = await ctx.e.createBundle(bundleRequest({ documents: [{ key: 'c', file_index: 0 }] }), files);
    expect([b.status, b.documents]).toEqual(['pe', [{ key: 'c', name: 'contract.pdf' }]]);
  });
});

describe('create: test Bundles go only to verified users', () => {
  const testBundle = (email: string) => bundleRequest({ is_test: true, packets: [{ key: 'u', name: 'User', email }] });

  it('accepts a user once verified, and refuses one whose verification is withdrawn', async () => {
    const { e } = ctx;
    e.account.addUser({ email: 'pat@example.com', verified: false });
    await expectApiError(e.createBundle(testBundle('pat@example.com')), 400, { field: 'packets[0].email' });

    e.account.setUserVerified('pat@example.com', true);
    const b = await e.createBundle(testBundle('pat@example.com'));
    expect(b.is_test).toBe(true);
    expect(b.status).toBe('se');
    expect(outboxOf(e, b.id).map((m) => m.recipient)).toEqual(['pat@example.com']);

    e.account.setUserVerified('owner@esign.local', false);
    await expectApiError(e.createBundle(testBundle('owner@esign.local')), 400, { field: 'packets[0].email' });
  });

  it('copies (cc_emails) of a test Bundle must go to verified users too', async () => {
    const { e } = ctx;
    const body = (cc: string[]) =>
      bundleRequest({
        is_test: true,
        cc_emails: cc,
        packets: [{ key: 'o', name: 'Owner', email: 'owner@esign.local' }],
      });
    await expectApiError(e.createBundle(body(['owner@esign.local', 'stranger@example.com'])), 400, {
      field: 'cc_emails[1]',
    });
    expect((await e.createBundle(body(['owner@esign.local']))).cc_emails).toEqual(['owner@esign.local']);
  });

  it('does not restrict ordinary Bundles to users', async () => {
    const b = await ctx.e.createBundle(bundleRequest({ is_test: false }));
    expect(b.status).toBe('se');
  });
});

describe('create: documents are stored once', () => {
  const blobFiles = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? blobFiles(join(dir, n)) : [join(dir, n)]));

  it('two Bundles with the same PDF share one blob file and one blobs row', async () => {
    const { e } = ctx;
    const a = await e.createBundle(bundleRequest({ label: 'first' }));
    const b = await e.createBundle(bundleRequest({ label: 'second' }), ONE_PDF);
    await e.createBundle(bundleRequest({ documents: [{ key: 'x', file_index: 0 }] }), ONE_PDF);
    expect(a.id).not.toBe(b.id);
    const files = blobFiles(join(e.dataDir, 'blobs'));
    expect(files).toHaveLength(1);
    expect(readFileSync(files[0]).equals(CONTRACT_PDF)).toBe(true);
    expect(e.db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 1 });
    expect(e.db.prepare('SELECT count(*) AS n FROM documents').get()).toEqual({ n: 3 });
  });

  it('a different PDF is a second blob', async () => {
    const { e } = ctx;
    await e.createBundle(bundleRequest());
    await e.createBundle(withDocument({ file_b64: readFileSync(fixture('nda.pdf')).toString('base64') }));
    expect(blobFiles(join(e.dataDir, 'blobs'))).toHaveLength(2);
    expect(e.db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 2 });
  });

  it('a rejected request stores no blob', async () => {
    const { e } = ctx;
    await expectApiError(e.createBundle(withPacket(1, { key: 'ada' })), 400);
    expect(e.db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 0 });
  });
});

describe('create: drafts, signing order and notifications', () => {
  it('status "dr" makes a draft: nothing sent, events bc and bd', async () => {
    const { e } = ctx;
    const b = await e.createBundle(bundleRequest({ status: 'dr' }));
    expect(b.status).toBe('dr');
    expect(b.sent).toBeNull();
    expect(b.packets.map((p) => p.status)).toEqual(['ne', 'ne']);
    expect(e.outbox()).toEqual([]);
    expect(await eventKinds(e, b.id)).toEqual(['bc', 'bd']);
  });

  it('is_draft (the 2.2.0 spelling) also makes a draft', async () => {
    const b = await ctx.e.createBundle(bundleRequest({ is_draft: true }));
    expect(b.status).toBe('dr');
    expect(ctx.e.outbox()).toEqual([]);
  });

  it('status "" launches: every signer gets a signing request', async () => {
    const { e } = ctx;
    const b = await e.createBundle(bundleRequest({ status: '', email_subject: 'Please sign' }));
    expect(b.status).toBe('se');
    expect(b.sent).not.toBeNull();
    const msgs = outboxOf(e, b.id);
    expect(msgs.map((m) => [m.kind, m.channel, m.recipient, m.subject])).toEqual([
      ['signing_request', 'email', 'ada@example.com', 'Please sign'],
      ['signing_request', 'email', 'bob@example.com', 'Please sign'],
    ]);
  });

  it('rejects any other status value', async () => {
    await expectApiError(ctx.e.createBundle(bundleRequest({ status: 'se' })), 400, { field: 'status' });
  });

  it('in_order sends only to the first signer and leaves the second packet ne', async () => {
    const { e } = ctx;
    const b = await e.createBundle(bundleRequest({ in_order: true }));
    expect(b.packets.map((p) => p.status)).toEqual(['se', 'ne']);
    expect(outboxOf(e, b.id).map((m) => m.recipient)).toEqual(['ada@example.com']);
    expect(await eventKinds(e, b.id)).toEqual(['bc', 'bl', 'ns']);
  });

  it("in_order follows the packets' order members, not their position", async () => {
    const { e } = ctx;
    const b = await e.createBundle(
      withPacket(0, { order: 2 }, withPacket(1, { order: 1 }, bundleRequest({ in_order: true }))),
    );
    expect(b.packets.map((p) => [p.email, p.status])).toEqual([
      ['ada@example.com', 'ne'],
      ['bob@example.com', 'se'],
    ]);
    expect(outboxOf(e, b.id).map((m) => m.recipient)).toEqual(['bob@example.com']);
  });

  it('delivery by phone records an SMS to the phone', async () => {
    const { e } = ctx;
    const b = await e.createBundle(withPacket(0, { deliver_via: 'phone', phone: '+15550100' }));
    expect(outboxOf(e, b.id).map((m) => [m.channel, m.recipient])).toEqual([
      ['sms', '+15550100'],
      ['email', 'bob@example.com'],
    ]);
  });

  for (const [name, over] of [
    ['suppress_signing', { suppress_signing: true }],
    ['suppress_all', { suppress_all: true }],
    ['deliver_via embed', { deliver_via: 'embed' }],
  ] as const) {
    it(`${name} produces no message for that signer`, async () => {
      const { e } = ctx;
      const b = await e.createBundle(withPacket(0, over));
      expect(b.status).toBe('se');
      expect(outboxOf(e, b.id).map((m) => m.recipient)).toEqual(['bob@example.com']);
      expect(e.outbox({ packet: b.packets[0].id })).toEqual([]);
    });
  }

  it('suppress_reminder and suppress_docs_ready do not stop the signing request', async () => {
    const { e } = ctx;
    const b = await e.createBundle(withPacket(0, { suppress_reminder: true, suppress_docs_ready: true }));
    expect(e.outbox({ packet: b.packets[0].id })).toHaveLength(1);
  });
});
