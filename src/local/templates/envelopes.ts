// Envelope Templates: reusable Bundle definitions (documents, signer roles, default settings).
/*
 * The spec file of `esign local envelope-template create spec.json` (JSON; unknown members are
 * rejected with a 400 naming them):
 *
 * {
 *   "name": "Lease",                      required, at most 200 characters
 *   "description": "Residential lease",   optional
 *   "is_shared": false,                   optional, default false
 *   "is_portal": false,                   optional, default false; a portal template has a smart_link_url
 *   "allow_direct_signing": false,        optional, default false
 *   "enabled": true,                      optional, default true; only enabled templates are listed
 *                                         and only they make Bundles
 *   "signers": [                          signer roles, at least one, keys unique
 *     { "key": "tenant", "label": "Tenant", "order": 0,
 *       "auth_sms": false, "auth_selfie": false, "auth_id": false }
 *   ],                                    label defaults to the key, order to the position in the list
 *   "documents": [                        at least one, keys unique; each is one of:
 *     { "key": "lease", "name": "Lease agreement", "order": 0,
 *       "template_id": "<Document Template uuid>",
 *       "assignments": { "<template role>": "<signer key>" } },
 *                                         assignments may also be [{ "role": "...", "signer": "..." }];
 *                                         a role left out goes to the signer with the same key
 *     { "key": "rules", "name": "House rules", "order": 1,
 *       "file": "house-rules.pdf",         a PDF read relative to the spec file ("file_path" too),
 *                                         or "file_b64": "<base64 PDF>"
 *       "fields": [ FieldRequest, ... ] }  as in a BundleRequest; editors are signer keys
 *   ],                                    name defaults to the file or template name, order to the position
 *   "defaults": {                         optional Bundle members; the creation request overrides them
 *     "label", "in_order", "email_subject", "email_message", "sms_message",
 *     "requester_name", "requester_email", "cc_emails", "is_test", "tag_values"
 *   }
 * }
 *
 * A Bundle is made from it with a BundleTemplateRequest: `envelope_template: {template_id,
 * field_values}` and one packet per signer role, matched by `key`. Each packet takes its role's
 * order and authentication (a packet may add authentication, not drop it). `field_values` set
 * initial values by field key in every document that has the field.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { FieldErrors, notFound } from '../../domain/errors.js';
import { parsePage } from '../../service/listQuery.js';
import type * as S from '../../domain/schemas.js';
import type { EnvelopeTemplate, Page, PageQuery } from '../../service/types.js';
import { recordBlob, sha256 } from '../store/blobs.js';
import { type DocumentTimes, type EngineContext, inTransaction } from '../store/context.js';
import { sql } from '../store/db.js';
import { slug } from '../store/ids.js';
import { createCheck, inspectPdfApart } from '../documents/sandbox/apart.js';
import { assignRoles, findStoredTemplate, fitFilename } from './templates.js';
import { mapPage, selectPage } from '../store/paging.js';

type SignerRole = EnvelopeTemplate['signers'][number];
type FieldRequest = S.FieldRequestT;
/** Validation loads on first write: listing and reading never pay for zod. */
const schemas = () => import('../../domain/schemas.js');

/** A document of a stored envelope template: a Document Template with assignments, or a stored PDF with fields. */
type StoredDocument = { key: string; name: string; order: number } & (
  | { template_id: string; assignments: { role: string; signer: string }[] }
  | { sha256: string; fields: FieldRequest[] }
);

interface StoredSpec {
  signers: SignerRole[];
  documents: StoredDocument[];
  defaults: Record<string, unknown>;
}

interface EnvelopeRow {
  seq: number;
  id: string;
  name: string;
  description: string;
  is_shared: number;
  is_portal: number;
  allow_direct_signing: number;
  enabled: number;
  spec: string;
  created: string;
}

/** An envelope_templates row's stored spec. */
const storedSpec = (r: Pick<EnvelopeRow, 'spec'>): StoredSpec => JSON.parse(r.spec) as StoredSpec;

function toEnvelopeTemplate(ctx: EngineContext, r: EnvelopeRow): EnvelopeTemplate {
  const spec = storedSpec(r);
  const { id, created, name, description } = r;
  return {
    id,
    created,
    name,
    description,
    is_shared: r.is_shared === 1,
    is_portal: r.is_portal === 1,
    allow_direct_signing: r.allow_direct_signing === 1,
    documents: spec.documents.map((d) => ({ key: d.key, name: d.name, order: d.order })),
    signers: spec.signers,
    smart_link_url: r.is_portal === 1 ? `${ctx.publicUrl()}/portal/${r.id}/` : '',
  };
}

const rowOf = (ctx: EngineContext, id: string) =>
  sql(ctx.db, 'SELECT * FROM envelope_templates WHERE id = ?').get(id) as EnvelopeRow | undefined;

export function listEnvelopeTemplates(ctx: EngineContext, q: PageQuery): Page<EnvelopeTemplate> {
  const { page, perPage } = parsePage(q);
  return ctx.db.transaction(() =>
    mapPage(
      selectPage<EnvelopeRow>(
        ctx.db,
        { page, perPage },
        { from: 'envelope_templates', where: ['enabled = 1'], order: 'created DESC, seq DESC' },
      ),
      (rows) => rows.map((r) => toEnvelopeTemplate(ctx, r)),
    ),
  )();
}

export function getEnvelopeTemplate(ctx: EngineContext, id: string): EnvelopeTemplate {
  const row = rowOf(ctx, id);
  if (!row) throw notFound('Envelope Template', id);
  return toEnvelopeTemplate(ctx, row);
}

/** `esign local envelope-template create spec.json`: files named in the spec are read relative to `baseDir`. */
export async function createEnvelopeTemplate(
  ctx: EngineContext,
  input: unknown,
  baseDir: string,
): Promise<EnvelopeTemplate> {
  const { parseOr400, EnvelopeTemplateSpec } = await schemas();
  const spec = parseOr400(EnvelopeTemplateSpec, input);
  const errs = new FieldErrors();
  const signers = signerRoles(spec.signers, errs);
  const signerKeys = new Set(signers.map((s) => s.key));
  const pdfs = new Map<number, { data: Buffer; hash: string; pages: number }>();
  const documents: StoredDocument[] = [];
  const docKeys = new Set<string>();
  for (const [i, d] of spec.documents.entries()) {
    if (docKeys.has(d.key)) errs.add(`documents[${i}].key`, `Duplicate document key "${d.key}".`);
    docKeys.add(d.key);
    const order = d.order ?? i;
    if (d.template_id !== undefined) {
      const template = findStoredTemplate(ctx, d.template_id);
      if (!template) errs.add(`documents[${i}].template_id`, `Document Template "${d.template_id}" was not found.`);
      else {
        const signerOf = assignRoles(
          template,
          d.assignments ?? [],
          signerKeys,
          'a signer role of this envelope template',
          (f) => `documents[${i}].${f}`,
          errs,
        );
        documents.push({
          key: d.key,
          name: d.name ?? template.name,
          order,
          template_id: d.template_id,
          assignments: [...signerOf].map(([role, signer]) => ({ role, signer })),
        });
      }
      continue;
    }
    const pdf = await readDocumentPdf(d, i, baseDir, errs, ctx.documentTimes);
    if (!pdf) continue;
    pdfs.set(i, pdf);
    checkFields(d.fields ?? [], signerKeys, pdf.pages, i, errs);
    const fields = (d.fields ?? []).map((f, j) => ({ ...f, key: f.key ?? `${f.kind}-${j + 1}` }));
    documents.push({ key: d.key, name: d.name ?? pdf.name, order, sha256: pdf.hash, fields });
  }
  errs.throwIfAny();

  for (const pdf of pdfs.values()) ctx.blobs.put(pdf.data, pdf.hash);
  const id = `T-${slug()}`;
  const stored: StoredSpec = {
    signers,
    documents: [...documents].sort((a, b) => a.order - b.order),
    defaults: spec.defaults ?? {},
  };
  return inTransaction(ctx, () => {
    const at = ctx.clock.now();
    for (const pdf of pdfs.values()) recordBlob(ctx.db, pdf.hash, pdf.data.length, pdf.pages, at);
    sql(
      ctx.db,
      `INSERT INTO envelope_templates (id, name, description, is_shared, is_portal, allow_direct_signing, enabled, spec, created)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      spec.name,
      spec.description ?? '',
      spec.is_shared ? 1 : 0,
      spec.is_portal ? 1 : 0,
      spec.allow_direct_signing ? 1 : 0,
      spec.enabled === false ? 0 : 1,
      JSON.stringify(stored),
      at,
    );
    return toEnvelopeTemplate(ctx, rowOf(ctx, id)!);
  });
}

function signerRoles(list: S.EnvelopeTemplateSpecT['signers'], errs: FieldErrors): SignerRole[] {
  const seen = new Set<string>();
  const roles = list.map((s, i) => {
    if (seen.has(s.key)) errs.add(`signers[${i}].key`, `Duplicate signer key "${s.key}".`);
    seen.add(s.key);
    return {
      key: s.key,
      label: s.label ?? s.key,
      order: s.order ?? i,
      auth_sms: s.auth_sms ?? false,
      auth_selfie: s.auth_selfie ?? false,
      auth_id: s.auth_id ?? false,
    };
  });
  return roles.sort((a, b) => a.order - b.order);
}

type FileDocument = Extract<S.EnvelopeTemplateSpecT['documents'][number], { file_b64?: string }>;

async function readDocumentPdf(
  d: FileDocument,
  i: number,
  baseDir: string,
  errs: FieldErrors,
  times: DocumentTimes,
): Promise<{ data: Buffer; hash: string; pages: number; name: string } | undefined> {
  const path = d.file ?? d.file_path;
  const field =
    path !== undefined ? `documents[${i}].${d.file !== undefined ? 'file' : 'file_path'}` : `documents[${i}].file_b64`;
  if ([d.file, d.file_path, d.file_b64].filter((x) => x !== undefined).length !== 1) {
    errs.add(`documents[${i}]`, 'Give exactly one of template_id, file, file_b64.');
    return undefined;
  }
  let data: Buffer;
  try {
    data = path !== undefined ? await readFile(resolve(baseDir, path)) : Buffer.from(d.file_b64!, 'base64');
  } catch (e) {
    errs.add(field, `Cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`);
    return undefined;
  }
  const info = await inspectPdfApart(data, createCheck(times));
  if ('problem' in info) {
    errs.add(field, info.problem);
    return undefined;
  }
  const name = path !== undefined ? path.split(/[\\/]/).pop()! : `${d.key}.pdf`;
  return { data, hash: sha256(data), pages: info.pages, name };
}

function checkFields(
  fields: FieldRequest[],
  signerKeys: Set<string>,
  pages: number,
  i: number,
  errs: FieldErrors,
): void {
  const keys = new Set<string>();
  fields.forEach((f, j) => {
    const at = (m: string) => `documents[${i}].fields[${j}].${m}`;
    const key = f.key ?? `${f.kind}-${j + 1}`;
    if (keys.has(key)) errs.add(at('key'), `Duplicate field key "${key}" in this document.`);
    keys.add(key);
    for (const [e, editor] of (f.editors ?? []).entries())
      if (!signerKeys.has(editor))
        errs.add(at(`editors[${e}]`), `"${editor}" is not a signer role of this envelope template.`);
    if (f.page !== undefined && f.page > pages)
      errs.add(at('page'), `Page ${f.page} is past the end of the PDF (${pages} page${pages === 1 ? '' : 's'}).`);
  });
}

/** A BundleTemplateRequest (or a BundleRequest with `envelope_template`) as the BundleRequest it stands for. */
export async function expandEnvelopeRequest(ctx: EngineContext, body: unknown): Promise<Record<string, unknown>> {
  const { parseOr400, BundleTemplateRequest } = await schemas();
  const req = parseOr400(BundleTemplateRequest, body);
  const raw = body as Record<string, unknown>;
  const { template_id } = req.envelope_template;
  const row = rowOf(ctx, template_id);
  const errs = new FieldErrors();
  if (!row) errs.add('envelope_template.template_id', `Envelope Template "${template_id}" was not found.`);
  else if (row.enabled !== 1)
    errs.add('envelope_template.template_id', `Envelope Template "${template_id}" is disabled.`);
  errs.throwIfAny();
  const spec = storedSpec(row!);

  const packets = matchPackets(spec.signers, raw.packets as Record<string, unknown>[], errs);
  const values = fieldValues(ctx, spec, req.envelope_template.field_values ?? [], errs);
  errs.throwIfAny();

  const { envelope_template: _et, packets: _p, documents: _d, ...members } = raw;
  const defined = Object.fromEntries(Object.entries(members).filter(([, v]) => v !== undefined));
  const defaults = spec.defaults as { tag_values?: Record<string, unknown> };
  const tagValues =
    defaults.tag_values || defined.tag_values
      ? { ...defaults.tag_values, ...(defined.tag_values as object) }
      : undefined;
  return {
    ...spec.defaults,
    ...defined,
    ...(tagValues ? { tag_values: tagValues } : {}),
    packets,
    documents: spec.documents.map((d) => bundleDocument(ctx, d, values)),
  };
}

/** One packet per signer role, matched by key, taking the role's order and authentication. */
function matchPackets(
  roles: SignerRole[],
  packets: Record<string, unknown>[],
  errs: FieldErrors,
): Record<string, unknown>[] {
  const byKey = new Map(roles.map((r) => [r.key, r]));
  const given = new Set(packets.map((p) => p.key));
  for (const r of roles)
    if (!given.has(r.key))
      errs.add('packets', `Signer role "${r.key}" has no packet (give one with "key": "${r.key}").`);
  return packets.map((p, i) => {
    const role = byKey.get(String(p.key));
    if (!role) {
      errs.add(
        `packets[${i}].key`,
        `"${String(p.key)}" is not a signer role of this envelope template (roles: ${roles.map((r) => r.key).join(', ')}).`,
      );
      return p;
    }
    const auth = (flag: 'auth_sms' | 'auth_selfie' | 'auth_id') => (role[flag] ? true : p[flag]);
    return {
      ...p,
      order: role.order,
      auth_sms: auth('auth_sms'),
      auth_selfie: auth('auth_selfie'),
      auth_id: auth('auth_id'),
    };
  });
}

/** `field_values` by field key; a key no document of the template has is a 400. */
function fieldValues(
  ctx: EngineContext,
  spec: StoredSpec,
  list: { key: string; initial_value: string | number }[],
  errs: FieldErrors,
): Map<string, string | number> {
  const known = new Set<string>();
  for (const d of spec.documents) {
    const fields = 'template_id' in d ? (findStoredTemplate(ctx, d.template_id)?.fields ?? []) : d.fields;
    for (const f of fields) known.add(f.key!);
  }
  const values = new Map<string, string | number>();
  list.forEach((v, i) => {
    if (!known.has(v.key))
      errs.add(
        `envelope_template.field_values[${i}].key`,
        `"${v.key}" is not the key of a field of this envelope template.`,
      );
    values.set(v.key, v.initial_value);
  });
  return values;
}

function bundleDocument(
  ctx: EngineContext,
  d: StoredDocument,
  values: Map<string, string | number>,
): Record<string, unknown> {
  if ('template_id' in d) {
    const keys = findStoredTemplate(ctx, d.template_id)?.fields.map((f) => f.key) ?? [];
    const field_values = keys.filter((k) => values.has(k)).map((key) => ({ key, initial_value: values.get(key)! }));
    return {
      key: d.key,
      template_id: d.template_id,
      assignments: d.assignments,
      ...(field_values.length ? { field_values } : {}),
    };
  }
  const fields = d.fields.map((f) => (values.has(f.key!) ? { ...f, initial_value: values.get(f.key!) } : f));
  return {
    key: d.key,
    file_b64: ctx.blobs.get(d.sha256).toString('base64'),
    filename: fitFilename(/\.pdf$/i.test(d.name) ? d.name : `${d.name}.pdf`),
    fields,
  };
}
