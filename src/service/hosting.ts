// What esign serve needs from the engine besides the API v2 port: the files behind expiring links,
// the signing page and the preparation pages. The server takes these interfaces, never the engine
// itself, so src/server depends on src/service only; the engine implements them.
import type { EsignService, SandboxAdminOperations, SandboxOperations, WebhookSandboxOperations } from './service.js';
import type { AttachedFile, Bundle, DocumentTemplate, RequestLogEntry } from './types.js';

/** The largest file a signer may attach (the signing page refuses larger ones). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** The files behind expiring file links (`/files/{token}/{name}`). */
interface FileLinks {
  /** Where the file behind a live file link lives on disk, or undefined (unknown or expired link). */
  fileForLink(token: string): string | undefined;
}

// ---- The signing page --------------------------------------------------------------------------

interface SigningDocument {
  key: string;
  name: string;
  pages: number | null;
}

/** Where a field is and how its value is checked: what the engine stores and the page shows alike. */
export interface FieldPlacement {
  key: string;
  kind: string;
  page?: number;
  x?: number;
  y?: number;
  w?: number;
  h?: number;
  v_pattern?: string;
  v_min?: number;
  v_max?: number;
  v_regex?: string;
  v_regex_msg?: string;
  v_attachment_types?: string[];
}

/** A field as the page shows it: where it is and how it is checked, plus its current value. */
export interface SigningField extends FieldPlacement {
  /** How the field is named in sign input and errors: its key, or `docKey/key` when the key is in several documents. */
  ref: string;
  docKey: string;
  label: string;
  required: boolean;
  /** The stored value, else the initial value; an empty signature or initials field suggests the signer's. */
  value: string;
  /** Names of files already attached (attachment fields). */
  attached: string[];
}

export interface SigningView {
  packetId: string;
  signer: { key: string; name: string; status: string };
  /** `errors`: what a failed Bundle says went wrong (a document that could not be processed). */
  bundle: { id: string; label: string; status: string; errors: string[] };
  requester: { name: string; email: string };
  documents: SigningDocument[];
  fields: SigningField[];
  session: { token: string; expires: string };
  /** The packet's `signing_complete_redirect`, when set. */
  redirect: string | null;
  /** Whether the signer may hand their turn to another person (reassignment). */
  canReassign: boolean;
}

/** The signing page: signing links, the short-lived page session, and the signer's actions. */
export interface SigningPages extends Pick<SandboxOperations, 'signPacket' | 'declinePacket' | 'reassignPacket'> {
  /** Opens a signing link (an embedded one only once) and starts a page session. */
  openSigningLink(token: string): Promise<SigningView>;
  /** The packet id behind a page session token (404 unknown, 410 expired). */
  resolveSigningSession(session: string): Promise<string>;
  signingSessionView(session: string): Promise<SigningView>;
  /** Where one of the session's original documents lives on disk, and its file name. */
  signingSessionDocument(session: string, docKey: string): Promise<{ path: string; name: string }>;
}

// ---- The preparation pages ---------------------------------------------------------------------

export interface TemplatePrep {
  type: 'template';
  template_id?: string;
  team?: string;
  library?: string;
  metadata?: Record<string, string>;
}

export interface BundlePrep {
  type: 'bundle';
  upload_pdf: boolean;
  template_ids: string[];
  folder_ids: string[];
  draft_bundle?: string;
  allow_search_signers: boolean;
  redirect_url?: string;
}

export type PrepSpec = TemplatePrep | BundlePrep;

export interface PrepSession {
  token: string;
  expires: string;
  spec: PrepSpec;
}

/** What the pages show of a template (read without making file links, unlike getTemplate). */
export type TemplateSummary = Pick<DocumentTemplate, 'id' | 'name' | 'roles' | 'fields'>;

/** What the authoring page submits. */
export interface TemplateDraft {
  name: string;
  roles: { key: string; label?: string }[];
  fields: unknown[];
  pdf?: { data: Buffer; filename: string };
}

export interface BundleView {
  spec: BundlePrep;
  templates: TemplateSummary[];
  draft?: Bundle;
}

/** What the Bundle preparation page submits. */
export interface BundleDraft {
  action: 'send' | 'draft';
  label?: string;
  signers: { key: string; name: string; email?: string }[];
  uploads: AttachedFile[];
  /** Fields placed on uploaded PDFs: `doc` is the index in `uploads`; `editors` name signer keys. */
  fields: ({ doc: number } & Record<string, unknown>)[];
  templates: { template_id: string; assignments: { role: string; signer: string }[] }[];
}

/** What the preparation pages do with their sessions (single-use URL, then a page session). */
export interface PreparationPages {
  open(token: string): PrepSession;
  session(token: string): PrepSession;
  template(token: string): Promise<TemplateSummary | undefined>;
  templatePdf(token: string): Promise<{ path: string; filename: string }>;
  saveTemplate(token: string, draft: TemplateDraft): Promise<DocumentTemplate>;
  bundleView(token: string): Promise<BundleView>;
  submitBundle(token: string, draft: BundleDraft): Promise<{ bundle: Bundle; redirect: string | null }>;
  searchSigners(token: string, q: string): Promise<{ name: string; email: string }[]>;
}

/** Everything esign serve hosts outside /api/v2/ when the engine is the service. */
/** Where esign serve proves it is the server serve.json names (see local/store/serveState.ts). */
export const SERVE_PROOF_PATH = '/_esign/serve-proof';

export interface HostedEngine
  extends FileLinks,
    SigningPages,
    SandboxOperations,
    WebhookSandboxOperations,
    SandboxAdminOperations,
    Pick<EsignService, 'followRequests'> {
  /** The preparation side, loaded on first use. */
  preparationPages(): Promise<PreparationPages>;
  /** Proof that this process serves the data directory named in its serve.json (undefined: it announced none). */
  serveProof?(challenge: string): string | undefined;
  /** Keeps one answered request in the request log (esign serve, for each request). */
  recordRequest(e: RequestLogEntry): void;
}
