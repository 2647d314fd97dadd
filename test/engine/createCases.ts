// The create requests of the engine's tests: every way a create is refused (one request each, with
// the field the 400 names) and requests at the edges that are accepted. test/engine/create-rules.test.ts
// sends them to the create; test/engine/check-create.test.ts holds that the create's check agrees on
// each, and that no refusal of the create is left without a request here.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AttachedFile } from '../../src/service/types.js';
import { CONTRACT_B64, CONTRACT_PDF, bundleRequest, fixture } from '../helpers.js';
import { type TestEngine, chars, emailOf, withDocument, withField, withPacket } from './support.js';

export type Body = Record<string, unknown>;

/** A request, made once the engine is ready for it (a template imported, a user added, the clock moved). */
export type Made = Body | ((e: TestEngine) => Body | Promise<Body>);

export interface Case {
  name: string;
  body: Made;
  /** The field the 400 names. */
  field: string;
  features?: string[];
  files?: AttachedFile[];
  /** Run with no LibreOffice to be found (PATH and ESIGN_SOFFICE cleared). */
  withoutSoffice?: boolean;
}

export interface Accepted {
  name: string;
  body: Made;
  features?: string[];
  files?: AttachedFile[];
}

export const made = async (e: TestEngine, body: Made): Promise<Body> => (typeof body === 'function' ? body(e) : body);

export const ONE_PDF: AttachedFile[] = [{ filename: 'contract.pdf', data: CONTRACT_PDF }];
const MISSING_UUID = '00000000-0000-4000-8000-000000000000';
const REDIRECT = 'https://example.com/done';
const DAY = 86_400_000;

/** A Document Template with roles buyer and seller, each with a field (test/engine/envelope-templates.test.ts). */
const saleTemplate = (e: TestEngine) =>
  e.importTemplate({
    name: 'Sale',
    pdf: readFileSync(fixture('nda.pdf')),
    roles: [{ key: 'buyer' }, { key: 'seller' }],
    fields: [
      { key: 'price', kind: 'inp', page: 1, editor_roles: ['buyer'], default_value: '10' },
      { key: 'seller-sig', kind: 'sig', page: 2, editor_roles: ['seller'], required: true },
    ],
  });

/** A Bundle of the Sale template for signers buyer and seller, its document merged with `over`. */
const fromSale = async (e: TestEngine, over: Body) =>
  bundleRequest({
    packets: [
      { key: 'buyer', name: 'Ada Buyer', email: 'ada@example.com' },
      { key: 'seller', name: 'Bob Seller', email: 'bob@example.com' },
    ],
    documents: [{ key: 'sale', template_id: (await saleTemplate(e)).id, ...over }],
  });

const ENVELOPE_PATH = fixture('templates/envelope-template.json');
const ENVELOPE = JSON.parse(readFileSync(ENVELOPE_PATH, 'utf8')) as Body;
const CLIENT = { key: 'client', name: 'Cleo Client', email: 'cleo@example.com', phone: '+15551234567' };
const PROVIDER = { key: 'provider', name: 'Pat Provider', email: 'pat@example.com' };

/** A request from the Services agreement Envelope Template (made with `spec` over its own), merged with `over`. */
const fromEnvelope = async (e: TestEngine, over: Body, spec: Body = {}) => ({
  envelope_template: {
    template_id: (await e.createEnvelopeTemplate({ ...ENVELOPE, ...spec }, dirname(ENVELOPE_PATH))).id,
  },
  packets: [CLIENT, PROVIDER],
  ...over,
});

/** Every way the engine refuses a create, one request each (test/engine/check-create.test.ts holds that none is missing). */
export const rejected: Case[] = [
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
  // Members a PATCH shares with a create, and their gates
  {
    name: 'send_reminders without the reminders feature',
    body: (e) => {
      e.account.setFeatures(['reminders'], false);
      return bundleRequest({ send_reminders: true });
    },
    field: 'send_reminders',
  },
  {
    name: 'a signing brand of no account',
    body: bundleRequest({ signing_brand: MISSING_UUID }),
    field: 'signing_brand',
  },
  {
    name: 'an expiry past by the engine clock (moved three days on)',
    body: (e) => {
      e.clock.advance(3 * DAY);
      return bundleRequest({ expires: new Date(Date.now() + DAY).toISOString() });
    },
    field: 'expires',
  },
  {
    name: 'a test Bundle copied to a requester who is no verified user (cc_sender)',
    body: bundleRequest({
      is_test: true,
      cc_sender: true,
      requester_email: 'desk@example.com',
      packets: [{ key: 'o', name: 'Owner', email: 'owner@example.com' }],
    }),
    field: 'cc_sender',
  },
  {
    name: 'a test Bundle copied (cc_emails) to an address that is no user',
    body: bundleRequest({
      is_test: true,
      cc_emails: ['cc@example.com'],
      packets: [{ key: 'o', name: 'Owner', email: 'owner@example.com' }],
    }),
    field: 'cc_emails[0]',
  },
  { name: 'a signer without a name', body: withPacket(0, { name: undefined }), field: 'packets[0].name' },
  {
    name: 'documents beside envelope_template',
    body: (e) => fromEnvelope(e, { documents: [{ key: 'c', file_b64: CONTRACT_B64 }] }),
    field: 'envelope_template',
  },
  {
    name: 'adobe_field_assignments naming no signer',
    body: withDocument({ adobe_field_assignments: { company: 'zed' } }),
    field: 'documents[0].adobe_field_assignments.company',
  },
  {
    name: 'adobe_field_assignments naming a form field the PDF does not have',
    body: withDocument({ adobe_field_assignments: { nowhere: 'ada' } }),
    field: 'documents[0].adobe_field_assignments.nowhere',
  },
  {
    name: 'an auto-placement whose text is nowhere in the document',
    body: withDocument({ auto_placements: [{ kind: 'sig', search: 'No such words here', editors: ['ada'] }] }),
    field: 'documents[0].auto_placements[0].search',
  },
  {
    name: 'duplicate field keys across a placed field and an auto-placement',
    body: withDocument({
      fields: [{ key: 'f', kind: 'sig', page: 1, x: 1, y: 1, w: 10, h: 10, editors: ['ada'] }],
      auto_placements: [{ key: 'f', kind: 'sig', search: 'Signature', editors: ['ada'] }],
    }),
    field: 'documents[0].auto_placements[0].key',
  },
  {
    name: 'an office upload where LibreOffice is not installed',
    features: ['office_upload'],
    files: [{ filename: 'contract.docx', data: readFileSync(fixture('contract.docx')) }],
    body: bundleRequest({ documents: [{ key: 'c', file_index: 0 }] }),
    field: 'documents[0].file_index',
    withoutSoffice: true,
  },
  // Document Templates
  {
    name: 'a template role that does not exist',
    body: (e) => fromSale(e, { assignments: [{ role: 'notary', signer: 'buyer' }] }),
    field: 'documents[0].assignments[0].role',
  },
  {
    name: 'a template role assigned twice',
    body: (e) =>
      fromSale(e, {
        assignments: [
          { role: 'buyer', signer: 'buyer' },
          { role: 'buyer', signer: 'seller' },
        ],
      }),
    field: 'documents[0].assignments[1].role',
  },
  {
    name: 'a template role given to no signer of the Bundle',
    body: (e) => fromSale(e, { assignments: [{ role: 'buyer', signer: 'zed' }] }),
    field: 'documents[0].assignments[0].signer',
  },
  {
    name: 'a template role with fields and no signer',
    body: async (e) => ({
      ...(await fromSale(e, {})),
      packets: [{ key: 'buyer', name: 'Ada Buyer', email: 'ada@example.com' }],
    }),
    field: 'documents[0].assignments',
  },
  {
    name: 'a template field value for no field of the template',
    body: (e) => fromSale(e, { field_values: [{ key: 'colour', initial_value: 'red' }] }),
    field: 'documents[0].field_values[0].key',
  },
  // Envelope Templates
  {
    name: 'a disabled Envelope Template',
    body: (e) => fromEnvelope(e, {}, { enabled: false }),
    field: 'envelope_template.template_id',
  },
  {
    name: 'an Envelope Template signer role without a packet',
    body: (e) => fromEnvelope(e, { packets: [CLIENT] }),
    field: 'packets',
  },
  {
    name: 'a packet for no signer role of the Envelope Template',
    body: (e) => fromEnvelope(e, { packets: [CLIENT, PROVIDER, { key: 'notary', name: 'N', email: 'n@example.com' }] }),
    field: 'packets[2].key',
  },
  {
    name: 'an Envelope Template field value for no field of it',
    body: async (e) => {
      const b = await fromEnvelope(e, {});
      const values = [{ key: 'colour', initial_value: 'red' }];
      return { ...b, envelope_template: { ...b.envelope_template, field_values: values } };
    },
    field: 'envelope_template.field_values[0].key',
  },
];

/** Requests at the edges of those rules, which the engine accepts. */
export const accepted: Accepted[] = [
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
    body: bundleRequest({ is_test: true, packets: [{ key: 'o', name: 'Owner', email: 'Owner@EXAMPLE.com' }] }),
  },
  { name: 'an embedded signer without an email', body: withPacket(0, { email: undefined, deliver_via: 'embed' }) },
  {
    name: 'a test Bundle to the verified owner',
    body: bundleRequest({ is_test: true, packets: [{ key: 'o', name: 'Owner', email: 'owner@example.com' }] }),
  },
  {
    // The JS example app's default flow: the spec limits a test Bundle's delivery, and an embedded signer gets none.
    name: 'a test Bundle with an embedded signer of any address',
    body: bundleRequest({
      is_test: true,
      packets: [{ key: 'v', name: 'Visitor', email: 'visitor@example.org', deliver_via: 'embed' }],
    }),
  },
];
