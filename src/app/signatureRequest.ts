// A request for signatures, from what a person (or an agent for them) says: who signs, which
// documents (a file here, a URL, base64, a Document Template) or an Envelope Template, and how
// (draft, test, in order). Builds the API's BundleRequest and the files it attaches; a template's
// roles go to the signers in order unless named. Files are read here, bounded.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { EsignService } from '../service/service.js';
import type { AttachedFile } from '../service/types.js';
import { UseCaseError } from './failure.js';

/** The largest document read from a path: esign serve's limit on one uploaded file. */
const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;

interface SignerInput {
  name: string;
  email?: string;
  phone?: string;
  /** The signer's key; with an Envelope Template, the signer role it fills. */
  key?: string;
}

interface DocumentInput {
  path?: string;
  url?: string;
  base64?: string;
  template_id?: string;
  /** The file name signers see (a path gives its own). */
  name?: string;
  /** A Document Template's roles: role key -> signer key (or 1-based number). */
  roles?: Record<string, string>;
  /** A template's field values by field key. */
  values?: Record<string, string | number>;
}

export interface SignatureRequestInput {
  label?: string;
  signers: SignerInput[];
  documents?: DocumentInput[];
  envelope_template?: string;
  /** The Envelope Template's field values. */
  values?: Record<string, string | number>;
  subject?: string;
  message?: string;
  draft?: boolean;
  test?: boolean;
  in_order?: boolean;
  expires?: string;
  custom_key?: string;
}

export interface SignatureRequest {
  body: Record<string, unknown>;
  files: AttachedFile[];
  /** The body with each attached file as its SHA-256: what makes two requests the same. */
  identity: Record<string, unknown>;
}

const usage = (message: string) => new UseCaseError(message, 'usage');

/** Reads a document from this machine, at most MAX_DOCUMENT_BYTES. */
async function readDocument(path: string): Promise<Buffer> {
  const file = await open(resolve(path)).catch((e: NodeJS.ErrnoException) => {
    throw new UseCaseError(`${path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`, 'invalid');
  });
  try {
    const { size } = await file.stat();
    if (size > MAX_DOCUMENT_BYTES)
      throw new UseCaseError(`${path}: larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB.`, 'invalid');
    return await file.readFile();
  } finally {
    await file.close();
  }
}

/** The packet a role names: by key, or by number from 1. */
function signerKey(packets: Record<string, unknown>[], s: string): string {
  const n = /^\d+$/.test(s) ? Number(s) : 0;
  const p = packets.find((x) => x.key === s) ?? (n >= 1 ? packets[n - 1] : undefined);
  if (!p) throw usage(`roles: no signer "${s}" (name one by key or number from 1).`);
  return p.key as string;
}

const fieldValues = (values: Record<string, string | number> | undefined) =>
  values ? Object.entries(values).map(([key, initial_value]) => ({ key, initial_value })) : undefined;

/** Roles given in order to signers that have no key of their own (both lists the same length). */
function inOrder(roles: string[], packets: Record<string, unknown>[], what: string): [string, string][] {
  if (roles.length !== packets.length)
    throw usage(
      `${what} has ${roles.length} signer role(s) (${roles.join(', ')}) and ${packets.length} signer(s) were given: ` +
        'give one signer per role, in order, or name the roles.',
    );
  return roles.map((r, i) => [r, packets[i]!.key as string]);
}

async function templateDocument(
  service: EsignService,
  d: DocumentInput,
  packets: Record<string, unknown>[],
): Promise<Record<string, unknown>> {
  let roles = Object.entries(d.roles ?? {}).map(([role, s]) => [role, signerKey(packets, s)]);
  if (!roles.length) {
    const t = await service.getTemplate(d.template_id!);
    if (t.roles.length)
      roles = inOrder(
        t.roles.map((r) => r.key),
        packets,
        `Document Template ${t.id}`,
      );
  }
  const field_values = fieldValues(d.values);
  return {
    template_id: d.template_id,
    ...(roles.length ? { assignments: roles.map(([role, signer]) => ({ role, signer })) } : {}),
    ...(field_values ? { field_values } : {}),
  };
}

export async function buildSignatureRequest(
  service: EsignService,
  input: SignatureRequestInput,
  readFiles: boolean,
): Promise<SignatureRequest> {
  const packets: Record<string, unknown>[] = input.signers.map((s, i) => ({
    key: s.key ?? `signer-${i + 1}`,
    name: s.name,
    ...(s.email ? { email: s.email } : {}),
    ...(s.phone ? { phone: s.phone, ...(s.email ? {} : { deliver_via: 'phone' }) } : {}),
  }));
  const body: Record<string, unknown> = { packets };
  const files: AttachedFile[] = [];
  const identity: Record<string, unknown>[] = [];
  const documents: Record<string, unknown>[] = [];
  for (const [i, d] of (input.documents ?? []).entries()) {
    const sources = [d.path, d.url, d.base64, d.template_id].filter((x) => x !== undefined).length;
    if (sources !== 1) throw usage(`documents[${i}]: give exactly one of path, url, base64, template_id.`);
    const key = `doc-${i + 1}`;
    if (d.path !== undefined) {
      if (!readFiles) throw usage(`documents[${i}].path: this connection cannot read files here.`);
      const data = await readDocument(d.path);
      files.push({ filename: d.name ?? basename(d.path), data });
      documents.push({ key, file_index: files.length - 1, filename: (d.name ?? basename(d.path)).slice(0, 50) });
      identity.push({ key, sha256: createHash('sha256').update(data).digest('hex') });
      continue;
    }
    const doc =
      d.template_id !== undefined
        ? { key, ...(await templateDocument(service, d, packets)) }
        : { key, ...(d.url ? { file_url: d.url } : { file_b64: d.base64 }), ...(d.name ? { filename: d.name } : {}) };
    documents.push(doc);
    identity.push(doc);
  }
  if (input.envelope_template) {
    if (documents.length) throw usage('An Envelope Template brings its own documents: give no documents with it.');
    if (input.signers.every((s) => s.key === undefined)) {
      const t = await service.getEnvelopeTemplate(input.envelope_template);
      const roles = [...t.signers].sort((a, b) => a.order - b.order).map((r) => r.key);
      for (const [role, k] of inOrder(roles, packets, `Envelope Template ${t.id}`))
        packets.find((p) => p.key === k)!.key = role;
    }
    const field_values = fieldValues(input.values);
    body.envelope_template = { template_id: input.envelope_template, ...(field_values ? { field_values } : {}) };
  } else if (!documents.length) throw usage('Nothing to sign: give documents, or an envelope_template.');
  if (documents.length) body.documents = documents;
  if (input.label !== undefined) body.label = input.label;
  if (input.subject !== undefined) body.email_subject = input.subject;
  if (input.message !== undefined) body.email_message = input.message;
  if (input.draft) body.status = 'dr';
  if (input.test) body.is_test = true;
  if (input.in_order) body.in_order = true;
  if (input.expires !== undefined) body.expires = input.expires;
  if (input.custom_key !== undefined) body.custom_key = input.custom_key;
  return { body, files, identity: { ...body, documents: identity } };
}
