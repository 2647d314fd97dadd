// Response shapes of API v2 as zod schemas: the OpenAPI document is made from them, and so are the
// answer types (types.ts: z.output of each). Responses are built by the engine, not parsed.
import { z } from 'zod';
import {
  ACCOUNT_FEATURES,
  BUNDLE_STATUSES,
  CHANNEL_KINDS,
  DELIVER_VIA,
  DOC_STATUSES,
  MESSAGE_KINDS,
  PACKET_STATUSES,
  WEBHOOK_EVENT_TYPES,
} from './enums.js';

const dateTime = z.iso.datetime({ offset: true });
const nullable = <S extends z.ZodType>(s: S) => s.nullable();

const WireErrorSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    detail: z.string().optional(),
    errors: z.array(z.object({ field: z.string(), messsage: z.string(), message: z.string().optional() })).optional(),
  })
  .meta({ description: "The Error object. Field errors carry the spec's `messsage` (three s) and `message`." });

/** The other error form some 400s use (e.g. an invalid `include`). */
const ErrorStringSchema = z.object({ error: z.string() });

const PacketSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: nullable(z.string()),
  phone: nullable(z.string()),
  person_id: nullable(z.string()),
  deliver_via: z.enum(DELIVER_VIA),
  order: z.int(),
  status: z.enum(PACKET_STATUSES),
  auth_sms: z.boolean(),
  auth_selfie: z.boolean(),
  auth_id: z.boolean(),
  signing_complete_redirect: nullable(z.string()),
  suppress_all: z.boolean(),
  suppress_signing: z.boolean(),
  suppress_reminder: z.boolean(),
  suppress_docs_ready: z.boolean(),
  completed_at: nullable(dateTime),
  last_accessed_at: nullable(dateTime),
  requires_witness: z.boolean(),
  witness_nominated_by: z.enum(['sgn', 'snd', '']),
});

const BundleEventSchema = z.object({
  kind: z.string(),
  description: z.string(),
  timestamp: dateTime,
  packet_id: z.string().optional(),
});

const FileObjectSchema = z.object({
  file_url: z.string(),
  expires: dateTime,
  /** esign additions (the spec does not show the container's shape): what the file is. */
  kind: z.enum(['document', 'signed_pdf', 'combined_pdf', 'coe_pdf', 'interim_pdf']).optional(),
  name: z.string().optional(),
  doc_key: z.string().optional(),
  packet_id: z.string().optional(),
  sha256: z.string().optional(),
  /** esign addition: bytes. */
  size: z.int().optional(),
});

const BundleDataItemSchema = z.object({
  doc_key: z.string(),
  field_key: z.string(),
  label: z.string(),
  kind: z.string(),
  value: z.string(),
  filled_by: z.string(),
  packet_id: nullable(z.string()),
  attachments: z.array(
    z.object({
      url: z.string(),
      name: z.string(),
      size: z.number(),
      num: z.int(),
      ext: z.string(),
      is_image: z.boolean(),
    }),
  ),
});

const BundleSchema = z.object({
  id: z.string(),
  created: dateTime,
  status: z.enum(BUNDLE_STATUSES),
  label: z.string(),
  in_order: z.boolean(),
  email_subject: z.string(),
  email_message: z.string(),
  sms_message: z.string(),
  requester_name: z.string(),
  requester_email: z.string(),
  cc_emails: z.array(z.string()),
  custom_key: nullable(z.string()),
  team: nullable(z.string()),
  is_test: z.boolean(),
  payment: nullable(
    z.object({ billed_to: z.string(), amount_due: z.int(), payment_method_types: z.array(z.string()) }),
  ),
  tag_values: z.record(z.string(), z.union([z.string(), z.number()])),
  docs_ready: z.boolean(),
  doc_status: z.enum(DOC_STATUSES),
  errors: z.array(WireErrorSchema),
  packets: z.array(PacketSchema),
  documents: z.array(z.object({ template_id: z.string().optional(), key: z.string(), name: z.string() })),
  tags: z.array(z.string()),
  sent: nullable(dateTime),
  completed_at: nullable(dateTime),
  expires: nullable(dateTime),
  cc_sender: z.boolean(),
  allow_signer_reassign: z.boolean(),
  allow_chained_signer_reassign: z.boolean(),
  send_reminders: z.boolean(),
  reminder_offset: nullable(z.int()),
  reminder_interval: nullable(z.int()),
  reminder_expires: nullable(z.int()),
  owner: nullable(z.string()),
  /** API 2.19: the owner's name and address, and a cap on reminders (null: none). */
  owner_name: z.string(),
  owner_email: z.string(),
  max_reminders: nullable(z.int()),
  signing_brand: nullable(z.string()),
  template: nullable(z.string()),
  data: nullable(z.array(BundleDataItemSchema)).optional(),
  events: nullable(z.array(BundleEventSchema)).optional(),
  files: nullable(z.array(FileObjectSchema)).optional(),
});

const ValidateResultSchema = z.object({ can_send: z.boolean(), msg: z.string(), n_docs: z.int() });
const EmbedUrlSchema = z.object({ url: z.string(), expires: dateTime });
const CoeFileSchema = z.object({ file_url: z.string(), expires: dateTime, sha256: z.string() });

const DocumentTemplateSchema = z.object({
  id: z.string(),
  is_shared: z.boolean(),
  name: z.string(),
  file_url: z.string(),
  roles: z.array(z.object({ key: z.string(), label: z.string() })),
  fields: z.array(z.record(z.string(), z.unknown())),
  metadata: z.record(z.string(), z.string()),
  teams: z.array(z.string()),
});

const EnvelopeTemplateSchema = z.object({
  id: z.string(),
  created: dateTime,
  name: z.string(),
  description: z.string(),
  is_shared: z.boolean(),
  is_portal: z.boolean(),
  allow_direct_signing: z.boolean(),
  documents: z.array(z.object({ key: z.string(), name: z.string(), order: z.int() })),
  signers: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      order: z.int(),
      auth_sms: z.boolean(),
      auth_selfie: z.boolean(),
      auth_id: z.boolean(),
    }),
  ),
  smart_link_url: z.string(),
});

const PersonSchema = z.object({
  id: z.string(),
  name: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  is_user: z.boolean(),
  channels: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(CHANNEL_KINDS),
      email: z.string().optional(),
      phone: z.string().optional(),
    }),
  ),
});

const WebhookExtraHeaderSchema = z.object({
  id: z.string(),
  webhook: z.string(),
  name: z.string(),
  value: z.string(),
  order: z.int(),
});

const WebhookSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  enabled: z.boolean(),
  json: z.boolean(),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  extra_headers: z.array(WebhookExtraHeaderSchema),
  /** esign additions, on a disabled webhook: since when, and after how many events given up in a row (null: a person disabled it). */
  disabled_at: dateTime.optional(),
  disabled_after_failures: z.int().nullable().optional(),
});

const WebhookEventShape = {
  pk: z.string(),
  webhook: z.string(),
  event_type: z.string(),
  created: dateTime,
  status: z.int(),
  success: z.boolean(),
  payload: z.string(),
  deliveries: z.array(z.object({ pk: z.string(), timestamp: dateTime, status: z.int(), message: z.string() })),
  /** esign addition (local engine): when the next attempt is due; null when none is. */
  next_attempt_at: nullable(dateTime).optional(),
};
const WebhookEventSchema = z.object(WebhookEventShape);
const WebhookDeliveryRecordSchema = z.object({ ...WebhookEventShape, webhook_event: z.string() });
const WebhookSecretSchema = z.object({ secret: z.string(), create_date: dateTime });

const VerifyResultSchema = z.object({
  status: z.enum(['match', 'no_match']),
  message: z.string(),
  sha256: z.string(),
  document_type: nullable(z.enum(['signed_pdf', 'combined_pdf', 'coe_pdf'])),
  signed_at: nullable(dateTime),
  envelope: nullable(
    z.object({
      bundle_slug: z.string(),
      status: z.enum(BUNDLE_STATUSES),
      sent: nullable(dateTime),
      completed_at: nullable(dateTime),
    }),
  ),
});

const AccountFactsSchema = z.object({
  features: z.array(z.enum(ACCOUNT_FEATURES)),
  verified_addresses: z.array(z.string()),
});

/** A sandbox's account after PATCH /sandbox/account/: its settings, users, teams and signing brands. */
const AccountSetupSchema = z.object({
  name: z.string(),
  requester_name: z.string(),
  requester_email: z.string(),
  features: z.array(z.enum(ACCOUNT_FEATURES)),
  users: z.array(
    z.object({ id: z.string(), email: z.string(), name: z.string(), verified: z.boolean(), is_admin: z.boolean() }),
  ),
  teams: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      requester_name: nullable(z.string()),
      requester_email: nullable(z.string()),
    }),
  ),
  brands: z.array(z.object({ id: z.string(), name: z.string(), redirect_url: nullable(z.string()) })),
});

const RateLimitSchema = z.object({ limit: z.int(), remaining: z.int(), reset: z.int(), window: z.int() });

export const SandboxInfoSchema = z.object({
  signer_actions: z.boolean(),
  clock: z.boolean(),
  outbox: z.boolean(),
  webhook_tools: z.boolean(),
  request_log: z.boolean(),
  /** Templates and account settings can be set up here (PATCH /sandbox/account/...): a sandbox, or the engine itself. */
  fixtures: z.boolean(),
});

const SandboxClockSchema = z.object({ now: dateTime, offset_ms: z.int() });

export const ClockMoveSchema = SandboxClockSchema.extend({
  expired: z.int(),
  reminded: z.int(),
  /** The webhook attempts the move made due, made before it answered: delivered, and failed. */
  webhooks_delivered: z.int(),
  webhooks_failed: z.int(),
});

export const OutboxMessageSchema = z.object({
  id: z.int(),
  created: dateTime,
  channel: z.enum(['email', 'sms']),
  kind: z.enum(MESSAGE_KINDS),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  bundle_id: nullable(z.string()),
  packet_id: nullable(z.string()),
});

/** Every response schema by the name it has in the OpenAPI document. */
export const RESPONSE_SCHEMAS = {
  Error: WireErrorSchema,
  ErrorString: ErrorStringSchema,
  Bundle: BundleSchema,
  Packet: PacketSchema,
  BundleEvent: BundleEventSchema,
  FileObject: FileObjectSchema,
  BundleDataItem: BundleDataItemSchema,
  ValidateResult: ValidateResultSchema,
  EmbedUrl: EmbedUrlSchema,
  CoeFile: CoeFileSchema,
  DocumentTemplate: DocumentTemplateSchema,
  EnvelopeTemplate: EnvelopeTemplateSchema,
  Person: PersonSchema,
  Webhook: WebhookSchema,
  WebhookExtraHeader: WebhookExtraHeaderSchema,
  WebhookEvent: WebhookEventSchema,
  WebhookDeliveryRecord: WebhookDeliveryRecordSchema,
  WebhookSecret: WebhookSecretSchema,
  VerifyResult: VerifyResultSchema,
  RateLimit: RateLimitSchema,
  SandboxInfo: SandboxInfoSchema,
  SandboxClock: SandboxClockSchema,
  ClockMove: ClockMoveSchema,
  OutboxMessage: OutboxMessageSchema,
  AccountFacts: AccountFactsSchema,
  AccountSetup: AccountSetupSchema,
} as const;
