// Enumerations of API v2 (spec) and of the hosted service's wire (docs/wire.md).
// Plain arrays so that zod schemas and the zod-free list-query parser share one source.

type Words<S extends string> = S extends `${infer Head} ${infer Tail}` ? [Head, ...Words<Tail>] : [S];
/** `words('a b c')` is `['a', 'b', 'c']` with its literal types: a long enumeration on a few lines. */
const words = <S extends string>(list: S): Readonly<Words<S>> => list.split(' ') as Words<S>;

export const BUNDLE_STATUSES = ['ne', 'dr', 'pr', 'pe', 'se', 'st', 'co', 'ca', 'ex', 'fa', 'de'] as const;
export type BundleStatus = (typeof BUNDLE_STATUSES)[number];

/** The wire's enum (docs/wire.md). A signer who declines ends `ca` (docs/wire.md, "How the embedded engine behaves"). */
export const PACKET_STATUSES = ['ne', 're', 'se', 'st', 'ca', 'ex', 'co', 'fa', 'ra'] as const;
export type PacketStatus = (typeof PACKET_STATUSES)[number];

export const DOC_STATUSES = ['no', 'pe', 'di', 'in', 'fi'] as const;
export type DocStatus = (typeof DOC_STATUSES)[number];

export const DELIVER_VIA = ['email', 'phone', 'embed'] as const;
export type DeliverVia = (typeof DELIVER_VIA)[number];

export const FIELD_KINDS = words('sig ini snm inp txt dat tms chk cbx cbg sel att stp apr');

export const V_PATTERNS = words('email bank_routing bank_account letters numbers phone ssn zip_code');

export const ATTACHMENT_TYPES = words('jpg jpeg png gif svg pdf doc docx ppt pptx xls xlsx rtf txt');

export const OFFICE_EXTENSIONS = ['doc', 'docx', 'ppt', 'pptx', 'xls', 'xlsx'] as const;

/** `blueink` is the hosted service's name for `native`; both are accepted. */
export const HTML_FIELDS_MODES = ['native', 'blueink', 'none'] as const;

export const WEBHOOK_EVENT_TYPES = [
  ...words('bundle_sent bundle_complete bundle_docs_ready bundle_error bundle_cancelled'),
  ...words('packet_viewed packet_complete packet_declined'),
  // Seen on the wire beyond the spec (docs/wire.md).
  ...words('bundle_signer_reassigned doc_template_created doc_template_updated doc_template_deleted'),
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const CHANNEL_KINDS = ['em', 'mp'] as const;

/** What a message in the sandbox's outbox was sent for. */
export const MESSAGE_KINDS = words('signing_request reminder docs_ready declined reassigned');

export const BUNDLE_INCLUDES = ['data', 'events', 'files'] as const;

export const BUNDLE_ORDERINGS = ['created', 'sent', 'completed_at'] as const;

/** Account features of the spec that switch operations on and off. */
export const ACCOUNT_FEATURES = [
  ...words('teams reminders signing_brands regex_validation office_upload template_preparation'),
  ...words('early_data early_files interim_files'),
] as const;
export type AccountFeature = (typeof ACCOUNT_FEATURES)[number];

export const ERROR_CODES = [
  ...words('authentication_failed conflict error invalid method_not_allowed not_acceptable not_authenticated'),
  ...words(
    'not_found permission_denied parse_error service_unavailable throttled unsupported_media_type not_implemented',
  ),
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 100;
