// A request for signatures, from what a person (or an agent for them) says: who signs, which
// documents (a file here, a URL, base64, a Document Template) or an Envelope Template, and how
// (draft, test, in order): MCP's arguments mapped into the request builder's intent
// (app/bundleRequest.ts, where the rules are). Files are read here, bounded.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { EsignService } from '../service/service.js';
import type { AttachedFile } from '../service/types.js';
import { type BundleIntent, type DocumentIntent, buildBundleRequest } from './bundleRequest.js';
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

const fieldValues = (values: Record<string, string | number> | undefined) =>
  values ? Object.entries(values).map(([key, initial_value]) => ({ key, initial_value })) : undefined;

const roleList = (roles: Record<string, string> | undefined) =>
  roles ? Object.entries(roles).map(([role, signer]) => ({ role, signer })) : undefined;

/** One document of the arguments, as the builder takes it. */
function documentIntent(d: DocumentInput, i: number, readFiles: boolean): DocumentIntent {
  const sources = [d.path, d.url, d.base64, d.template_id].filter((x) => x !== undefined).length;
  if (sources !== 1) throw usage(`documents[${i}]: give exactly one of path, url, base64, template_id.`);
  const filename = d.name !== undefined ? { filename: d.name } : {};
  if (d.path !== undefined) {
    if (!readFiles) throw usage(`documents[${i}].path: this connection cannot read files here.`);
    return { file_path: d.path, ...filename };
  }
  if (d.url !== undefined) return { file_url: d.url, ...filename };
  if (d.base64 !== undefined) return { file_b64: d.base64, ...filename };
  const assignments = roleList(d.roles);
  const field_values = fieldValues(d.values);
  return {
    template_id: d.template_id,
    ...(assignments ? { assignments } : {}),
    ...(field_values ? { field_values } : {}),
  };
}

/** The arguments as the request builder's intent. */
function signatureIntent(input: SignatureRequestInput, readFiles: boolean): BundleIntent {
  const documents = (input.documents ?? []).map((d, i) => documentIntent(d, i, readFiles));
  if (input.envelope_template) {
    if (documents.length) throw usage('An Envelope Template brings its own documents: give no documents with it.');
  } else if (!documents.length) throw usage('Nothing to sign: give documents, or an envelope_template.');
  const settings: Record<string, unknown> = {};
  if (input.label !== undefined) settings.label = input.label;
  if (input.subject !== undefined) settings.email_subject = input.subject;
  if (input.message !== undefined) settings.email_message = input.message;
  if (input.draft) settings.status = 'dr';
  if (input.test) settings.is_test = true;
  if (input.in_order) settings.in_order = true;
  if (input.expires !== undefined) settings.expires = input.expires;
  if (input.custom_key !== undefined) settings.custom_key = input.custom_key;
  const field_values = fieldValues(input.values);
  return {
    signers: input.signers.map((s) => ({
      ...(s.key !== undefined ? { key: s.key } : {}),
      name: s.name,
      ...(s.email ? { email: s.email } : {}),
      ...(s.phone ? { phone: s.phone } : {}),
    })),
    documents,
    ...(input.envelope_template
      ? { envelope: { template_id: input.envelope_template, ...(field_values ? { field_values } : {}) } }
      : {}),
    settings,
  };
}

export async function buildSignatureRequest(
  service: EsignService,
  input: SignatureRequestInput,
  readFiles: boolean,
): Promise<SignatureRequest> {
  const { body, files } = await buildBundleRequest(signatureIntent(input, readFiles), {
    service,
    baseDir: process.cwd(),
    readPath: (_path, given) => readDocument(given),
  });
  // Each attached file as its hash: the same request, the same identity, wherever the file lies.
  const documents = Array.isArray(body.documents) ? (body.documents as Record<string, unknown>[]) : [];
  const identity = documents.map((d) =>
    typeof d.file_index === 'number'
      ? { key: d.key, sha256: createHash('sha256').update(files[d.file_index]!.data).digest('hex') }
      : d,
  );
  return { body, files, identity: { ...body, documents: identity } };
}
