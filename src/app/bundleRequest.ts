// THE request builder: what a person means to send, from any door, becomes the API's BundleRequest
// (with an Envelope Template, its BundleTemplateRequest) and the files it attaches. The doors map
// their own input into a BundleIntent and nothing more: the CLI's flags and spec
// (cli/commands/bundle/request.ts), MCP's arguments (app/signatureRequest.ts), a CSV row
// (app/batch/mapping.ts), a scenario step (scenario/steps.ts). A create rule is written here, once:
// - a signer without a key is `signer-N` (N its place from 1); one with a phone and no email is
//   reached by phone;
// - a signer is named (a template role's signer) by key, number from 1, email (any case), phone or name;
// - a document without a key is `doc-N`; a file (a path here, read relative to the request's folder,
//   or bytes in hand) travels attached, referred to by `file_index`, named by its own file name;
// - a template's roles go to the signers named for them; when none is named and no signer has a key
//   of its own, to the signers in order (as many signers as roles); else the API's rule applies (a
//   role goes to the signer with its key);
// - an Envelope Template brings its own documents: a role named renames its signer's key to it.
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { EsignService } from '../service/service.js';
import type { AttachedFile } from '../service/types.js';
import { UseCaseError } from './failure.js';

type Json = Record<string, unknown>;

/** A signer: a PacketRequest whose key may be left out. */
export interface SignerIntent extends Json {
  key?: string;
  name?: string;
  email?: string;
  phone?: string;
}

/** A role of a template and the signer who fills it, by any handle (key, number, email, phone, name). */
interface RoleIntent {
  role: string;
  signer: string;
}

/**
 * A document: the API's members (file_url, file_b64, file_html, fields...; for a Document Template
 * template_id, assignments by any handle and field_values), or a file here (`file_path`), or bytes
 * in hand (`file`).
 */
export interface DocumentIntent extends Json {
  key?: string;
  file_path?: string;
  file?: AttachedFile;
  template_id?: string;
  assignments?: RoleIntent[];
}

interface EnvelopeIntent {
  template_id: string;
  field_values?: { key: string; initial_value: string | number }[];
  /** Roles named: each renames its signer's key. */
  roles?: RoleIntent[];
}

export interface BundleIntent {
  /** Absent: the request has no packets member (the API says what is missing). */
  signers?: SignerIntent[];
  documents: DocumentIntent[];
  envelope?: EnvelopeIntent;
  /** Every other member of the request, as the API names it (label, email_subject, custom_key, status...). */
  settings: Json;
}

/** What a file path gave: its bytes; 'checked' (exists, not read: a count); undefined (refused, the door said why). */
type PathRead = Buffer | 'checked' | undefined;

export interface BuildContext {
  /**
   * Asked for a template's roles when they go to the signers in order. Absent only in a count that
   * checks each request's shape (a batch's first pass): the roles are then left out.
   */
  service?: Pick<EsignService, 'getTemplate' | 'getEnvelopeTemplate'>;
  /** The folder a relative `file_path` is read from. */
  baseDir: string;
  /** Reads a file whole (default: readFile); a failure is refused naming the file_path. */
  read?: (path: string) => Promise<Buffer>;
  /** Instead of `read`: the door reads (or checks) the file and refuses in its own words. */
  readPath?: (path: string, given: string, at: string) => Promise<PathRead>;
}

export interface BuiltRequest {
  body: Json;
  files: AttachedFile[];
}

/** A role given a signer no handle names. */
export class UnknownSigner extends UseCaseError {
  constructor(
    readonly role: string,
    readonly handle: string,
  ) {
    super(
      `roles: no signer "${handle}" for role ${role} (name one by key, number from 1, email, phone or name).`,
      'usage',
    );
  }
}

/** A template whose roles would go to the signers in order, but the counts differ. */
export class RoleCountMismatch extends UseCaseError {
  constructor(
    readonly what: 'Document Template' | 'Envelope Template',
    readonly id: string,
    readonly roles: string[],
    readonly signers: number,
  ) {
    super(
      `${what} ${id} has ${roles.length} signer role(s) (${roles.join(', ')}) and ${signers} signer(s) were given: ` +
        'give one signer per role, in order, or name the roles.',
      'usage',
    );
  }
}

/** The signer a handle names: by key, number from 1, email (any case), phone or name. */
function findSigner(packets: readonly Json[], handle: string): Json | undefined {
  const n = /^\d+$/.test(handle) ? Number(handle) : 0;
  const lower = handle.toLowerCase();
  return (
    packets.find((p) => p.key === handle) ??
    (n >= 1 ? packets[n - 1] : undefined) ??
    packets.find(
      (p) =>
        (typeof p.email === 'string' && p.email.toLowerCase() === lower) || p.phone === handle || p.name === handle,
    )
  );
}

/** Splits a request as the API spells it (a spec, a scenario's body, a CSV row filled in) into an intent. */
export function intentOfSpec(spec: Json): BundleIntent {
  const { packets, documents, envelope_template, ...settings } = spec;
  const intent: BundleIntent = {
    ...(Array.isArray(packets) ? { signers: packets as SignerIntent[] } : {}),
    documents: Array.isArray(documents) ? (documents as DocumentIntent[]) : [],
    settings,
  };
  if (envelope_template !== undefined) intent.envelope = envelope_template as EnvelopeIntent;
  // A member that is not a list is the API's to refuse, as written.
  if (packets !== undefined && !Array.isArray(packets)) settings.packets = packets;
  if (documents !== undefined && !Array.isArray(documents)) settings.documents = documents;
  return intent;
}

/** Reads with `ctx.read`, a failure refused naming the file_path as given. */
async function readWhole(ctx: BuildContext, path: string, given: string): Promise<Buffer> {
  try {
    return await (ctx.read ?? readFile)(path);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UseCaseError(`file_path ${given}: cannot read ${path} (${err.code ?? err.message}).`, 'usage');
  }
}

async function templateRoles(ctx: BuildContext, kind: 'document' | 'envelope', id: string): Promise<string[]> {
  if (!ctx.service) return [];
  if (kind === 'document') return (await ctx.service.getTemplate(id)).roles.map((r) => r.key);
  const t = await ctx.service.getEnvelopeTemplate(id);
  return [...t.signers].sort((a, b) => a.order - b.order).map((r) => r.key);
}

/** The roles in order to the signers in order: as many signers as roles. */
function inOrder(
  what: RoleCountMismatch['what'],
  id: string,
  roles: string[],
  packets: readonly Json[],
): [string, Json][] {
  if (roles.length !== packets.length) throw new RoleCountMismatch(what, id, roles, packets.length);
  return roles.map((r, i) => [r, packets[i]!]);
}

const named = (packets: readonly Json[], r: RoleIntent): Json => {
  const p = findSigner(packets, r.signer);
  if (!p) throw new UnknownSigner(r.role, r.signer);
  return p;
};

async function buildDocument(
  d: DocumentIntent,
  i: number,
  packets: Json[],
  keyed: boolean,
  ctx: BuildContext,
  files: AttachedFile[],
): Promise<Json> {
  const { file_path, file, assignments, ...rest } = d;
  const doc: Json = { key: d.key ?? `doc-${i + 1}`, ...rest };
  if (file !== undefined) {
    files.push(file);
    doc.file_index = files.length - 1;
  } else if (typeof file_path === 'string') {
    const path = resolve(ctx.baseDir, file_path);
    const at = `documents[${i}].file_path`;
    const got = ctx.readPath ? await ctx.readPath(path, file_path, at) : await readWhole(ctx, path, file_path);
    if (got === 'checked') doc.file_index = 0;
    else if (got) {
      files.push({ filename: basename(path), data: got });
      doc.file_index = files.length - 1;
    }
  } else if (file_path !== undefined) doc.file_path = file_path;
  if (typeof d.template_id !== 'string') return assignments === undefined ? doc : { ...doc, assignments };
  let roles: { role: string; signer: string }[] | undefined;
  if (Array.isArray(assignments))
    roles = assignments.map((r) => ({ role: r.role, signer: named(packets, r).key as string }));
  else if (assignments === undefined && !keyed && packets.length) {
    const keys = await templateRoles(ctx, 'document', d.template_id);
    if (keys.length)
      roles = inOrder('Document Template', d.template_id, keys, packets).map(([role, p]) => ({
        role,
        signer: p.key as string,
      }));
  } else if (assignments !== undefined) roles = assignments;
  const { field_values, ...head } = doc;
  return { ...head, ...(roles ? { assignments: roles } : {}), ...(field_values !== undefined ? { field_values } : {}) };
}

/** The request a person means, built by the rules above. */
export async function buildBundleRequest(intent: BundleIntent, ctx: BuildContext): Promise<BuiltRequest> {
  // A signer with a key of its own: a template's roles then go by key, never in order.
  const keyed = (intent.signers ?? []).some((s) => s?.key !== undefined);
  const packets: Json[] = (intent.signers ?? []).map((s, i) => {
    if (!s || typeof s !== 'object') return s as Json;
    const { key, ...rest } = s;
    const p: Json = { key: key ?? `signer-${i + 1}`, ...rest };
    if (p.phone && !p.email && p.deliver_via === undefined && p.person_id === undefined) p.deliver_via = 'phone';
    return p;
  });
  const files: AttachedFile[] = [];
  const documents: Json[] = [];
  for (const [i, d] of intent.documents.entries())
    documents.push(d && typeof d === 'object' ? await buildDocument(d, i, packets, keyed, ctx, files) : (d as Json));
  const body: Json = { ...intent.settings };
  if (intent.signers) body.packets = packets;
  if (documents.length) body.documents = documents;
  const e = intent.envelope;
  if (e !== undefined && (typeof e !== 'object' || e === null)) body.envelope_template = e;
  else if (e !== undefined) {
    if (documents.length)
      throw new UseCaseError('An Envelope Template brings its own documents: give no documents with it.', 'usage');
    const { roles, ...envelope } = e;
    if (roles?.length) for (const r of roles) named(packets, r).key = r.role;
    else if (!keyed && packets.length && ctx.service && typeof e.template_id === 'string')
      for (const [role, p] of inOrder(
        'Envelope Template',
        e.template_id,
        await templateRoles(ctx, 'envelope', e.template_id),
        packets,
      ))
        p.key = role;
    body.envelope_template = envelope;
  }
  return { body, files };
}
