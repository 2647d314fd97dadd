// Request schemas of API v2: one source of truth for request types and for validation.
// Loaded lazily (zod costs tens of milliseconds to import); read paths never need it.
import { z } from 'zod';
import {
  ACCOUNT_FEATURES,
  ATTACHMENT_TYPES,
  CHANNEL_KINDS,
  DELIVER_VIA,
  FIELD_KINDS,
  HTML_FIELDS_MODES,
  V_PATTERNS,
  WEBHOOK_EVENT_TYPES,
} from './enums.js';
import { ApiError, type FieldError, FieldErrors } from './errors.js';
import { PHONE_RULE, isPhoneNumber } from './phone.js';

const str = (max?: number) => (max ? z.string().max(max) : z.string());

/**
 * A protective bound on a text the spec gives no limit for: far above any real use (a label, a
 * name, a key), so a request the hosted service takes is never refused here (docs/wire.md, "Limits").
 */
export const UNSTATED_TEXT_MAX = 10_000;
const text = () => z.string().max(UNSTATED_TEXT_MAX);

// Numbers and booleans as the hosted service's framework (Django REST Framework) reads them in
// JSON: "0" is an integer, "true"/"false" (and its other spellings) are booleans. Anything else
// is left as it came and refused by the type check.
const TRUE_STRINGS = new Set(['true', 't', 'yes', 'y', 'on', '1']);
const FALSE_STRINGS = new Set(['false', 'f', 'no', 'n', 'off', '0']);
const fromBoolString = (v: unknown) => {
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (TRUE_STRINGS.has(s)) return true;
    if (FALSE_STRINGS.has(s)) return false;
  }
  if (v === 1) return true;
  if (v === 0) return false;
  return v;
};
/** DRF's IntegerField takes "12" and "12.0", not "12.5" or "twelve". */
const fromIntString = (v: unknown) => (typeof v === 'string' && /^\s*[-+]?\d+(\.0*)?\s*$/.test(v) ? Number(v) : v);
const fromNumberString = (v: unknown) =>
  typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
export const bool = () => z.preprocess(fromBoolString, z.boolean());
export const integer = (s: z.ZodInt = z.int()) => z.preprocess(fromIntString, s);
const number = () => z.preprocess(fromNumberString, z.number());
/** The spec's 128-character bound, then a possible number as typed (phone.ts: the one rule for a phone number). */
const phone = z
  .string()
  .max(128)
  .refine((v) => isPhoneNumber(v), { error: PHONE_RULE });

const email = z
  .string()
  .max(254)
  .pipe(z.email({ error: 'Enter a valid email address.' }));
const uuid = z.string().pipe(z.uuid({ error: 'Must be a valid UUID.' }));
const day = z.iso.date({ error: 'Must be a date in the form YYYY-MM-DD.' });
const dateTimeOrDay = z.union([z.iso.datetime({ offset: true }), day], {
  error: 'Must be a date-time (ISO 8601) or a date (YYYY-MM-DD).',
});

/**
 * An expiry not yet past by this machine's clock (a date alone ends at 23:59:59 UTC), so a request
 * whose expiry has gone is refused wherever it is checked; the engine checks again by its own clock,
 * which `local clock advance` may have moved ahead.
 */
function notPast(v: string): boolean {
  return Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T23:59:59.999Z` : v) > Date.now();
}

/** `kind` is checked against the enum, with a dedicated message for the retired `sdt`. */
const fieldKind = z.string().superRefine((v, ctx) => {
  if (v === 'sdt') ctx.addIssue({ code: 'custom', message: '"sdt" is no longer a valid kind; use "dat".' });
  else if (!(FIELD_KINDS as readonly string[]).includes(v))
    ctx.addIssue({ code: 'custom', message: `"${v}" is not a valid kind. Valid kinds: ${FIELD_KINDS.join(', ')}.` });
});

const dataFlowTag = z.string().regex(/^[a-z0-9_]{1,40}$/, {
  error: 'A Data Flow Tag name: lowercase letters, digits and underscores, at most 40.',
});

const fieldCommon = {
  label: str().optional(),
  required: bool().optional(),
  v_pattern: z.enum(V_PATTERNS).optional(),
  v_min: number().optional(),
  v_max: number().optional(),
  v_attachment_types: z.array(z.enum(ATTACHMENT_TYPES)).optional(),
  format: text().optional(),
  initial_value: z.union([z.string(), number()]).optional(),
  editors: z.array(z.string()).optional(),
  v_regex: str(200).optional(),
  v_regex_msg: str(200).optional(),
};

/** Cross-member rules shared by placed and auto-placed fields. */
function fieldRules(f: { kind: string; format?: string; v_pattern?: string; v_regex?: string }, ctx: z.RefinementCtx) {
  if (f.format !== undefined && f.kind !== 'dat' && f.kind !== 'tms')
    ctx.addIssue({
      code: 'custom',
      path: ['format'],
      message: `format is supported only for kinds "dat" and "tms", not "${f.kind}".`,
    });
  if (f.v_pattern !== undefined && f.v_regex !== undefined)
    ctx.addIssue({ code: 'custom', path: ['v_pattern'], message: 'v_pattern cannot be combined with v_regex.' });
}

/** A field placed by page and position: its key, a kind other than `apr` (`instead` says what to do), its box. */
const placed = (instead: string) => ({
  key: text().optional(),
  kind: fieldKind.refine((k) => k !== 'apr', { error: `"apr" is the auto-placement kind; ${instead}` }),
  page: integer(z.int().min(1)).optional(),
  x: number().optional(),
  y: number().optional(),
  w: number().optional(),
  h: number().optional(),
});

export const FieldRequest = z
  .object({ ...placed('place it through auto_placements.'), ...fieldCommon })
  .superRefine(fieldRules);

export const AutoPlacementRequest = z
  .object({
    key: text().optional(),
    kind: fieldKind,
    search: z.string().min(1),
    w: number().optional(),
    h: number().optional(),
    offset_x: number().optional(),
    offset_y: number().optional(),
    ...fieldCommon,
  })
  .superRefine(fieldRules);

export const DocumentRequest = z.object({
  key: text().optional(),
  /** Present only on TemplateRequest: keeps a malformed template document from parsing as a plain one. */
  template_id: z.undefined().optional(),
  file_url: z.url({ protocol: /^https?$/, error: 'Must be an http or https URL.' }).optional(),
  file_b64: z.string().optional(),
  file_html: z.string().optional(),
  file_index: integer(z.int().min(0)).optional(),
  html_fields_mode: z.enum(HTML_FIELDS_MODES).optional(),
  filename: str(50).optional(),
  fields: z.array(FieldRequest).optional(),
  auto_placements: z.array(AutoPlacementRequest).optional(),
  converted_pdf_fields_to: z.string().optional(),
  /** 2.19: the PDF's own form fields (by name) each given to a signer (by key). */
  adobe_field_assignments: z
    .record(text(), z.string())
    .refine((m) => Object.keys(m).length <= 1000, { error: 'At most 1000 field assignments.' })
    .optional(),
});

/** A document taken from a Document Template (shape not shown by the spec; documented in docs/templates-persons-webhooks.md). */
export const TemplateRequest = z.object({
  key: text().optional(),
  template_id: uuid,
  assignments: z.array(z.object({ role: z.string(), signer: z.string() })).optional(),
  field_values: z.array(z.object({ key: z.string(), initial_value: z.union([z.string(), number()]) })).optional(),
});

export const PacketRequest = z.object({
  key: text().optional(),
  name: text().optional(),
  email: email.optional(),
  phone: phone.optional(),
  person_id: uuid.optional(),
  deliver_via: z.enum(DELIVER_VIA).optional(),
  order: integer(z.int().min(0)).optional(),
  auth_sms: bool().optional(),
  auth_selfie: bool().optional(),
  auth_id: bool().optional(),
  auth_secrets: z.unknown().optional(),
  signing_complete_redirect: z
    .string()
    .max(400)
    .pipe(z.url({ protocol: /^https?$/, error: 'Enter a valid http or https URL.' }))
    .optional(),
  suppress_all: bool().optional(),
  suppress_signing: bool().optional(),
  suppress_reminder: bool().optional(),
  suppress_docs_ready: bool().optional(),
  email_message: str().optional(),
  sms_message: str().optional(),
});

const days = integer(z.int().min(0).max(30));
/** Members of Bundle PATCH that published clients also send at creation: applied there with the same rules. */
const BundleSettings = {
  expires: dateTimeOrDay.refine(notPast, { error: 'Must be in the future.' }).optional(),
  cc_sender: bool().optional(),
  send_reminders: bool().optional(),
  reminder_offset: days.optional(),
  reminder_interval: days.optional(),
  reminder_expires: days.optional(),
  signing_brand: uuid.nullable().optional(),
  /** A signer may hand their turn to another person (docs/wire.md: packet status `ra`). */
  allow_signer_reassign: bool().optional(),
  /** ...and the person they hand it to may hand it on again. */
  allow_chained_signer_reassign: bool().optional(),
};

const BundleCommon = {
  ...BundleSettings,
  label: text().optional(),
  in_order: bool().optional(),
  email_subject: str(400).optional(),
  email_message: str().optional(),
  sms_message: str().optional(),
  requester_name: text().optional(),
  requester_email: email.optional(),
  cc_emails: z.array(email).optional(),
  custom_key: str(200).optional(),
  team: uuid.optional(),
  is_test: bool().optional(),
  status: z.enum(['', 'dr']).optional(),
  /** 2.2.0's spelling of `status: "dr"`. */
  is_draft: bool().optional(),
  payment: z
    .object({
      billed_to: z.string(),
      amount_due: integer(z.int().min(0)),
      payment_method_types: z.array(z.string()).optional(),
    })
    .optional(),
  /** Keys are Data Flow Tag names: lowercase letters, digits and underscores, at most 40. */
  tag_values: z.record(dataFlowTag, z.union([z.string(), number()])).optional(),
};

export const EnvelopeTemplateRef = z.object({
  template_id: z.string().min(1),
  field_values: z.array(z.object({ key: z.string(), initial_value: z.union([z.string(), number()]) })).optional(),
});

export const BundleRequest = z
  .object({
    ...BundleCommon,
    packets: z.array(PacketRequest).min(1, { error: 'At least one packet (signer) is required.' }),
    // Empty is allowed with envelope_template: one published client always sends `documents: []` (docs/wire.md).
    documents: z.array(z.union([TemplateRequest, DocumentRequest])).optional(),
    envelope_template: EnvelopeTemplateRef.optional(),
  })
  // Run even when another member is missing or bad, so that `{}` names documents beside packets.
  .refine((b) => hasDocuments(b), {
    path: ['documents'],
    message: 'At least one document is required.',
    when: (p) => !p.issues.some((i) => i.path?.[0] === 'documents'),
  });

/** Documents given (a bad one is named by its own error), or an envelope_template that brings them. */
function hasDocuments(b: unknown): boolean {
  const r = (b ?? {}) as { envelope_template?: unknown; documents?: unknown };
  return (
    r.envelope_template !== undefined ||
    (r.documents !== undefined && !(Array.isArray(r.documents) && !r.documents.length))
  );
}

export const BundleTemplateRequest = z.object({
  ...BundleCommon,
  envelope_template: EnvelopeTemplateRef,
  packets: z
    .array(
      z.object({
        key: z.string(),
        name: text().optional(),
        email: email.optional(),
        phone: phone.optional(),
        deliver_via: z.enum(DELIVER_VIA).optional(),
      }),
    )
    .min(1, { error: 'At least one packet (signer) is required.' }),
});

export const BundlePatchRequest = z.strictObject({
  team: uuid.nullable().optional(),
  cc_emails: z.array(email).optional(),
  owner: uuid.nullable().optional(),
  ...BundleSettings,
});

export const PacketPatchRequest = PacketRequest.pick({
  name: true,
  email: true,
  phone: true,
  auth_sms: true,
  auth_selfie: true,
  auth_id: true,
  signing_complete_redirect: true,
  suppress_all: true,
  suppress_signing: true,
  suppress_reminder: true,
  suppress_docs_ready: true,
})
  .extend({
    deliver_via: z
      .enum(['email', 'phone'], { error: 'deliver_via must be "email" or "phone" ("embed" is not allowed here).' })
      .optional(),
  })
  .strict();

/** A signer hands their turn to another person (esign's sandbox, the signing page, `esign local reassign`). */
export const ReassignRequest = z.strictObject({
  name: text().refine((v) => v.trim() !== '', { error: 'This field may not be blank.' }),
  email: email.optional(),
  phone: phone.optional(),
  deliver_via: z.enum(['email', 'phone'], { error: 'deliver_via must be "email" or "phone".' }).optional(),
  reason: text().optional(),
});

export const TagsRequest = z.object({ tags: z.array(z.string().min(1).max(UNSTATED_TEXT_MAX)) });

export const BundlePreparationSessionRequest = z
  .object({
    upload_pdf: bool().optional(),
    template_ids: z.array(uuid).optional(),
    folder_ids: z.array(z.string()).optional(),
    draft_bundle: z.string().optional(),
    allow_search_signers: bool().optional(),
    redirect_url: z.url({ protocol: /^https?$/, error: 'Enter a valid http or https URL.' }).optional(),
  })
  .superRefine((r, ctx) => {
    if (!r.upload_pdf && !r.template_ids?.length && !r.folder_ids?.length)
      ctx.addIssue({
        code: 'custom',
        path: ['upload_pdf'],
        message: 'At least one document input must be enabled (upload_pdf, template_ids or folder_ids).',
      });
  });

export const TemplatePatchRequest = z.strictObject({
  metadata: z.union([z.literal(''), z.record(z.string(), z.string().max(500))]),
});

const { initial_value: _initial, editors: _editors, ...templateFieldCommon } = fieldCommon;
const value = z.union([z.string(), number()]);
const templateMetadata = z.record(z.string(), z.string().max(500));

/** A Document Template field: FieldRequest with `default_value`, `editor_roles` and `data_flow_tag`. */
export const TemplateField = z
  .strictObject({
    ...placed('a template field is placed by page and position.'),
    ...templateFieldCommon,
    default_value: value.optional(),
    editor_roles: z.array(z.string()).optional(),
    data_flow_tag: dataFlowTag.optional(),
  })
  .superRefine(fieldRules);

/** What `esign local template import` hands the engine, less the PDF bytes (checked separately). */
export const TemplateImportRequest = z.object({
  name: z.string().trim().min(1, { error: 'This field is required.' }).max(UNSTATED_TEXT_MAX),
  /** Any length: cut to the 50-character filename limit of documents when stored. */
  filename: z.string().min(1).optional(),
  roles: z.array(z.strictObject({ key: z.string().min(1).max(UNSTATED_TEXT_MAX), label: text().optional() })),
  fields: z.array(TemplateField).optional(),
  metadata: templateMetadata.optional(),
  is_shared: bool().optional(),
  teams: z.array(uuid).optional(),
  library: text().optional(),
});

// ---- A sandbox's fixtures (docs/sandboxes.md): what API v2 cannot make, set up within a sandbox ----

const MB = 1024 * 1024;
/** The PDF of a Document Template set up over the wire; a sandbox holds 256 MB in all. */
export const MAX_TEMPLATE_PDF_BYTES = 25 * MB;
/** Base64 of MAX_TEMPLATE_PDF_BYTES: 4 characters for every 3 bytes. */
const MAX_TEMPLATE_B64 = Math.ceil(MAX_TEMPLATE_PDF_BYTES / 3) * 4;
export const FIXTURE_COUNTS = { roles: 50, fields: 1000, documents: 50, users: 100, teams: 50, brands: 50 } as const;

/** POST /sandbox/templates/: a Document Template from a PDF (base64), its roles and fields. */
export const TemplateSetupRequest = z.strictObject({
  ...TemplateImportRequest.shape,
  roles: TemplateImportRequest.shape.roles
    .min(1, { error: 'At least one role is required.' })
    .max(FIXTURE_COUNTS.roles),
  fields: z.array(TemplateField).max(FIXTURE_COUNTS.fields).optional(),
  file_b64: z
    .string()
    .min(1, { error: 'This field is required.' })
    .max(MAX_TEMPLATE_B64, { error: `A PDF of at most ${MAX_TEMPLATE_PDF_BYTES / MB} MB.` }),
});

/** An account feature switched on (true) or off (false); features not named stay as they are. */
const featureSwitches = z.partialRecord(z.enum(ACCOUNT_FEATURES), bool());

/** PATCH /sandbox/account/: the account's settings a test needs, each added or changed, never removed. */
export const AccountSetupRequest = z.strictObject({
  features: featureSwitches.optional(),
  requester_name: z.string().trim().min(1).max(200).optional(),
  requester_email: email.optional(),
  users: z
    .array(
      z.strictObject({
        email,
        name: z.string().trim().min(1).max(200).optional(),
        verified: bool().optional(),
        admin: bool().optional(),
      }),
    )
    .max(FIXTURE_COUNTS.users)
    .optional(),
  teams: z
    .array(
      z.strictObject({
        name: z.string().trim().min(1).max(200),
        requester_name: z.string().trim().min(1).max(200).optional(),
        requester_email: email.optional(),
      }),
    )
    .max(FIXTURE_COUNTS.teams)
    .optional(),
  brands: z
    .array(
      z.strictObject({
        name: z.string().trim().min(1).max(200),
        redirect_url: z
          .string()
          .max(2000)
          .regex(/^https?:\/\/[^\s/]+\S*$/, { error: 'Must be a full http or https URL.' })
          .optional(),
      }),
    )
    .max(FIXTURE_COUNTS.brands)
    .optional(),
});

/** Role -> signer assignments: `[{role, signer}]` as in TemplateRequest, or `{role: signer}` in a spec file. */
const assignments = z.union([
  z.array(z.strictObject({ role: z.string(), signer: z.string() })),
  z.record(z.string(), z.string()).transform((m) => Object.entries(m).map(([role, signer]) => ({ role, signer }))),
]);

const envelopeDocument = {
  key: z.string().min(1).max(UNSTATED_TEXT_MAX),
  name: text().optional(),
  order: integer(z.int().min(0)).optional(),
};

/** The spec file of `esign local envelope-template create` (documented in src/local/templates/envelopes.ts). */
export const EnvelopeTemplateSpec = z.strictObject({
  name: z.string().trim().min(1, { error: 'This field is required.' }).max(UNSTATED_TEXT_MAX),
  description: str(2000).optional(),
  is_shared: bool().optional(),
  is_portal: bool().optional(),
  allow_direct_signing: bool().optional(),
  enabled: bool().optional(),
  signers: z
    .array(
      z.strictObject({
        key: z.string().min(1).max(UNSTATED_TEXT_MAX),
        label: text().optional(),
        order: integer(z.int().min(0)).optional(),
        auth_sms: bool().optional(),
        auth_selfie: bool().optional(),
        auth_id: bool().optional(),
      }),
    )
    .min(1, { error: 'At least one signer role is required.' }),
  documents: z
    .array(
      z.union([
        z.strictObject({ ...envelopeDocument, template_id: uuid, assignments: assignments.optional() }),
        z.strictObject({
          ...envelopeDocument,
          template_id: z.undefined().optional(),
          file: z.string().min(1).optional(),
          /** The spelling of bundle spec files (fixtures/bundle-spec.json). */
          file_path: z.string().min(1).optional(),
          file_b64: z.string().optional(),
          fields: z.array(FieldRequest).optional(),
        }),
      ]),
    )
    .min(1, { error: 'At least one document is required.' }),
  defaults: z
    .strictObject({
      label: BundleCommon.label,
      in_order: BundleCommon.in_order,
      email_subject: BundleCommon.email_subject,
      email_message: BundleCommon.email_message,
      sms_message: BundleCommon.sms_message,
      requester_name: BundleCommon.requester_name,
      requester_email: BundleCommon.requester_email,
      cc_emails: BundleCommon.cc_emails,
      is_test: BundleCommon.is_test,
      tag_values: BundleCommon.tag_values,
    })
    .optional(),
});

export const TemplatePreparationSessionRequest = z.object({
  template_id: uuid.optional(),
  team: uuid.optional(),
  library: z.string().optional(),
  metadata: z.record(z.string(), z.string().max(500)).optional(),
});

/** A contact channel: exactly one of `email` (kind `em`) or `phone` (kind `mp`); `kind` may be left to inference. */
const Channel = z
  .object({
    id: uuid.optional(),
    kind: z.enum(CHANNEL_KINDS).optional(),
    email: email.optional(),
    phone: phone.optional(),
  })
  .superRefine((c, ctx) => {
    const has = { em: c.email !== undefined, mp: c.phone !== undefined };
    if (has.em === has.mp)
      ctx.addIssue({ code: 'custom', message: 'A channel has exactly one of email (kind "em") or phone (kind "mp").' });
    else if (c.kind && !has[c.kind])
      ctx.addIssue({
        code: 'custom',
        path: ['kind'],
        message: `Kind "${c.kind}" needs ${c.kind === 'em' ? 'an email' : 'a phone'}, not ${has.em ? 'an email' : 'a phone'}.`,
      });
  });
export const PersonRequest = z.object({
  name: text().refine((v) => v.trim() !== '', { error: 'This field may not be blank.' }),
  metadata: z.record(z.string(), z.unknown()).optional(),
  channels: z.array(Channel).optional(),
});
export const PersonPatchRequest = PersonRequest.partial();

/** RFC 7230 token (header name) and field-value (visible ASCII, spaces and tabs inside). */
const headerName = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: 'Must be an RFC 7230 header name (token characters only).' });
const headerValue = z
  .string()
  .max(240)
  .regex(/^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$|^$/, {
    error: 'Must be an RFC 7230 header value (visible ASCII, no leading or trailing space).',
  });
/** Headers a delivery sets itself, or that would break the framing of its request (the HTTP client refuses to send them). */
export const RESERVED_HEADER_NAMES = [
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'user-agent',
  'x-blueink-signature',
  'x-blueink-request-timestamp',
] as const;
const extraHeaderName = headerName.refine(
  (v) => !(RESERVED_HEADER_NAMES as readonly string[]).includes(v.toLowerCase()),
  {
    error: (issue) =>
      `"${String(issue.input)}" is set by the delivery itself (or controls its connection) and cannot be an extra header.`,
  },
);

export const WebhookRequest = z.object({
  name: str(80).refine((v) => v.trim() !== '', { error: 'This field may not be blank.' }),
  url: z.url({ protocol: /^https?$/, error: 'Must be a full http or https URL.' }),
  enabled: bool().optional(),
  json: bool().optional(),
  // Duplicates collapse: a webhook is subscribed to a type or not.
  event_types: z
    .array(z.enum(WEBHOOK_EVENT_TYPES))
    .min(1)
    .transform((types) => [...new Set(types)]),
  /** Created with the webhook; `id` and `webhook` of a header read back from a GET are ignored. */
  extra_headers: z
    .array(z.object({ name: extraHeaderName, value: headerValue, order: integer().optional() }))
    .optional(),
});
export const WebhookPatchRequest = WebhookRequest.partial();

export const WebhookHeaderRequest = z.object({
  webhook: uuid,
  name: extraHeaderName,
  value: headerValue,
  order: integer().optional(),
});
export const WebhookHeaderPatchRequest = WebhookHeaderRequest.partial();

/** A sign value: strings, numbers and booleans are all given as their text. */
const signValue = z.union([z.string(), z.number(), z.boolean()]).transform(String);
/** An attachment on the wire: its bytes in base64 (`data_b64` is accepted too). */
const signAttachment = z
  .object({ name: z.string().min(1), b64: z.string().optional(), data_b64: z.string().optional() })
  .refine((a) => typeof (a.b64 ?? a.data_b64) === 'string', {
    error: 'An object {name, b64}: b64 is required.',
    path: ['b64'],
  })
  .transform((a) => ({ name: a.name, data: Buffer.from((a.b64 ?? a.data_b64)!, 'base64') }));

/** POST /sandbox/packets/{id}/sign/ and the signing page's JSON form: `{values, attachments: {key: [{name, b64}]}}`. */
export const PacketSignRequest = z.object({
  values: z.record(z.string(), signValue).optional(),
  /** One attachment may be given bare instead of as a list of one. */
  attachments: z
    .record(z.string(), z.union([z.array(signAttachment), signAttachment.transform((a) => [a])]))
    .optional(),
});

/** A sign body from the wire (the sandbox route, the signing page's JSON form) as the port's sign input. */
export const signInputOf = (body: unknown) => parseOr400(PacketSignRequest, body ?? {});

/** POST /sandbox/packets/{id}/decline/. */
export const PacketDeclineRequest = z.object({ reason: z.string().optional() });

/** The longest move of the sandbox's clock: ten years. */
export const MAX_CLOCK_ADVANCE_MS = 10 * 365 * 86_400_000;

/** POST /sandbox/clock/advance/: how far to move the clock, in milliseconds. */
export const ClockAdvanceRequest = z.strictObject({
  ms: z
    .int({ error: 'A whole number of milliseconds is required.' })
    .min(1, { error: 'Must be at least 1.' })
    .max(MAX_CLOCK_ADVANCE_MS, { error: `Must be at most ${MAX_CLOCK_ADVANCE_MS} (ten years).` }),
});

export const VerifyRequest = z.object({
  hash: z.string().regex(/^[0-9a-fA-F]{64}$/, { error: 'Must be a SHA-256 hash: 64 hexadecimal characters.' }),
});

export type BundleRequestT = z.output<typeof BundleRequest>;
export type DocumentRequestT = z.output<typeof DocumentRequest>;
export type TemplateRequestT = z.output<typeof TemplateRequest>;
export type PacketRequestT = z.output<typeof PacketRequest>;
export type FieldRequestT = z.output<typeof FieldRequest>;
export type AutoPlacementRequestT = z.output<typeof AutoPlacementRequest>;
export type BundleTemplateRequestT = z.output<typeof BundleTemplateRequest>;
export type BundlePatchRequestT = z.output<typeof BundlePatchRequest>;
export type BundleSettingsT = z.output<z.ZodObject<typeof BundleSettings>>;
export type PacketPatchRequestT = z.output<typeof PacketPatchRequest>;
export type TagsRequestT = z.output<typeof TagsRequest>;
export type ReassignRequestT = z.output<typeof ReassignRequest>;
export type BundlePreparationSessionRequestT = z.output<typeof BundlePreparationSessionRequest>;
export type TemplatePatchRequestT = z.output<typeof TemplatePatchRequest>;
export type TemplateFieldT = z.output<typeof TemplateField>;
export type TemplateImportRequestT = z.output<typeof TemplateImportRequest>;
export type EnvelopeTemplateSpecT = z.output<typeof EnvelopeTemplateSpec>;
export type AccountSetupRequestT = z.output<typeof AccountSetupRequest>;
export type TemplatePreparationSessionRequestT = z.output<typeof TemplatePreparationSessionRequest>;
export type PersonRequestT = z.output<typeof PersonRequest>;
export type PersonPatchRequestT = z.output<typeof PersonPatchRequest>;
export type WebhookRequestT = z.output<typeof WebhookRequest>;
export type WebhookPatchRequestT = z.output<typeof WebhookPatchRequest>;
export type WebhookHeaderRequestT = z.output<typeof WebhookHeaderRequest>;
export type PacketSignRequestT = z.input<typeof PacketSignRequest>;
export type PacketDeclineRequestT = z.output<typeof PacketDeclineRequest>;
export type WebhookHeaderPatchRequestT = z.output<typeof WebhookHeaderPatchRequest>;

/** `packets[0].email` from zod's ['packets', 0, 'email']. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || 'non_field_errors';
}

function message(issue: z.core.$ZodRawIssue): string | undefined {
  const input = issue.input;
  switch (issue.code) {
    case 'invalid_type':
      return input === undefined
        ? 'This field is required.'
        : `Expected ${issue.expected}, got ${input === null ? 'null' : typeof input}.`;
    case 'too_big':
      if (issue.origin === 'string') return `Ensure this field has no more than ${issue.maximum} characters.`;
      if (issue.origin === 'array') return `Ensure this list has no more than ${issue.maximum} items.`;
      return `Ensure this value is less than or equal to ${issue.maximum}.`;
    case 'too_small':
      if (issue.origin === 'string') return `Ensure this field has at least ${issue.minimum} characters.`;
      if (issue.origin === 'array') return `Ensure this list has at least ${issue.minimum} items.`;
      return `Ensure this value is greater than or equal to ${issue.minimum}.`;
    case 'invalid_value':
      return `"${String(input)}" is not a valid choice. Valid choices: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'unrecognized_keys':
      return `Unknown or read-only field(s): ${issue.keys.join(', ')}.`;
    default:
      return undefined;
  }
}

const valueAt = (root: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
    root,
  );

/** Parses `input` or throws a 400 ApiError naming every offending field. */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new ApiError(400, 'invalid', 'The request body must be a JSON object.');
  const r = schema.safeParse(input, { error: message });
  if (r.success) return r.data;
  const errors: FieldError[] = [];
  for (const issue of r.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys)
        errors.push({ field: fieldPath([...issue.path, k]), message: 'This field is not allowed here.' });
      continue;
    }
    if (issue.code === 'invalid_union' && issue.path.at(-2) === 'documents') {
      // TemplateRequest | DocumentRequest: report the branch the document was meant for.
      const doc = valueAt(input, issue.path);
      const branch = issue.errors[doc && typeof doc === 'object' && 'template_id' in doc ? 0 : 1] ?? [];
      for (const i of branch) errors.push({ field: fieldPath([...issue.path, ...i.path]), message: i.message });
      if (branch.length) continue;
    }
    errors.push({ field: fieldPath(issue.path), message: issue.message });
  }
  const collected = new FieldErrors();
  for (const e of errors) collected.add(e.field, e.message);
  collected.throwIfAny();
  throw new Error('unreachable: a failed parse has issues');
}
