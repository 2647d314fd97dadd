// Document Templates: reusable PDFs with signer roles and placed fields, and the documents of
// Bundles made from them.
import { FieldErrors, notFound } from '../../domain/errors.js';
import { parsePage } from '../../service/listQuery.js';
import type { TemplateFieldT, TemplateRequestT } from '../../domain/schemas.js';
import type { DocumentTemplate, Page, TemplateListQuery } from '../../service/types.js';
import { recordBlob, sha256 } from '../store/blobs.js';
import { type EngineContext, inTransaction } from '../store/context.js';
import { enqueueTemplateEvent } from '../webhooks/queue.js';
import { sql } from '../store/db.js';
import type { StoredField } from '../bundles/fields.js';
import { uuid } from '../store/ids.js';
import { fileLink } from '../bundles/links.js';
import { createCheck, inspectPdfApart } from '../documents/sandbox/apart.js';
import { checkTeam } from '../account/rules.js';
import { regexCheck } from '../../domain/featureGates.js';
import { mapPage, selectPage } from '../store/paging.js';
import type { TemplateImport } from '../../service/localAdmin.js';

/** What `esign local template import` and the template authoring page hand the engine. */
export type { TemplateImport };

/** A template field as stored: its key is always set. */
export type TemplateField = TemplateFieldT & { key: string };
export interface TemplateRole {
  key: string;
  label: string;
}

interface TemplateRow {
  seq: number;
  id: string;
  name: string;
  is_shared: number;
  library: string | null;
  sha256: string;
  filename: string;
  roles: string;
  fields: string;
  metadata: string;
  teams: string;
  created: string;
  updated: string;
}

/** A stored template in the shape Bundle creation needs. */
export interface StoredTemplate {
  id: string;
  name: string;
  sha256: string;
  filename: string;
  pages: number;
  roles: TemplateRole[];
  fields: TemplateField[];
}

const rowOf = (ctx: EngineContext, id: string) =>
  sql(ctx.db, 'SELECT * FROM templates WHERE id = ?').get(id) as TemplateRow | undefined;

function findRow(ctx: EngineContext, id: string): TemplateRow {
  const row = rowOf(ctx, id);
  if (!row) throw notFound('Document Template', id);
  return row;
}

function toTemplate(ctx: EngineContext, r: TemplateRow): DocumentTemplate {
  return {
    id: r.id,
    is_shared: r.is_shared === 1,
    name: r.name,
    file_url: fileLink(ctx, r.sha256, r.filename).url,
    roles: JSON.parse(r.roles),
    fields: JSON.parse(r.fields),
    metadata: JSON.parse(r.metadata),
    teams: JSON.parse(r.teams),
  };
}

/** A stored template for Bundle creation, or undefined when there is none with this id. */
export function findStoredTemplate(ctx: EngineContext, id: string): StoredTemplate | undefined {
  const r = rowOf(ctx, id);
  if (!r) return undefined;
  const blob = sql(ctx.db, 'SELECT pages FROM blobs WHERE sha256 = ?').get(r.sha256) as { pages: number };
  return {
    id: r.id,
    name: r.name,
    sha256: r.sha256,
    filename: r.filename,
    pages: blob.pages,
    roles: JSON.parse(r.roles),
    fields: JSON.parse(r.fields),
  };
}

export function listTemplates(ctx: EngineContext, q: TemplateListQuery): Page<DocumentTemplate> {
  const { page, perPage } = parsePage(q);
  const filters = Object.entries(q.metadata ?? {});
  const where = filters.map(() => 'EXISTS (SELECT 1 FROM json_each(t.metadata) m WHERE m.key = ? AND m.value = ?)');
  const params = filters.flatMap(([k, v]) => [k, String(v)]);
  // Immediate: each item's file_url is a link written in the same transaction as the read.
  return inTransaction(ctx, () =>
    mapPage(
      selectPage<TemplateRow>(
        ctx.db,
        { page, perPage },
        { from: 'templates t', where, params, order: 't.created DESC, t.seq DESC' },
      ),
      (rows) => rows.map((r) => toTemplate(ctx, r)),
    ),
  );
}

export function getTemplate(ctx: EngineContext, id: string): DocumentTemplate {
  return toTemplate(ctx, findRow(ctx, id));
}

/** PATCH: only `metadata`, shallow-merged ("" deletes a key; a top-level "" wipes them all). */
export async function updateTemplate(ctx: EngineContext, id: string, body: unknown): Promise<DocumentTemplate> {
  const S = await import('../../domain/schemas.js');
  findRow(ctx, id);
  const patch = S.parseOr400(S.TemplatePatchRequest, body);
  return inTransaction(ctx, () => {
    const row = findRow(ctx, id);
    const metadata = mergeMetadata(JSON.parse(row.metadata), patch.metadata);
    const at = ctx.clock.now();
    sql(ctx.db, 'UPDATE templates SET metadata = ?, updated = ? WHERE id = ?').run(JSON.stringify(metadata), at, id);
    enqueueTemplateEvent(ctx.db, 'updated', id, at);
    return toTemplate(ctx, findRow(ctx, id));
  });
}

function mergeMetadata(old: Record<string, string>, patch: Record<string, string> | ''): Record<string, string> {
  if (patch === '') return {};
  const out = { ...old };
  for (const [k, v] of Object.entries(patch)) {
    if (v === '') delete out[k];
    else out[k] = v;
  }
  return out;
}

/** Bundles made from the template keep their documents: they refer to the PDF by its hash. */
export function deleteTemplate(ctx: EngineContext, id: string): void {
  inTransaction(ctx, () => {
    const { changes } = sql(ctx.db, 'DELETE FROM templates WHERE id = ?').run(id);
    if (!changes) throw notFound('Document Template', id);
    enqueueTemplateEvent(ctx.db, 'deleted', id, ctx.clock.now());
  });
}

/** Creates a template (new id) or, with `id`, replaces an existing template's definition (name, roles, fields, PDF). */
/** `pdfField`: what field errors call the PDF (`file_b64` when it came over the wire). */
export async function saveTemplate(
  ctx: EngineContext,
  input: TemplateImport,
  id?: string,
  pdfField = 'pdf',
): Promise<DocumentTemplate> {
  const S = await import('../../domain/schemas.js');
  if (id !== undefined) findRow(ctx, id);
  const def = S.parseOr400(S.TemplateImportRequest, { ...input, pdf: undefined });
  const errs = new FieldErrors();
  const pdf = Buffer.isBuffer(input.pdf) ? input.pdf : undefined;
  const info = pdf ? await inspectPdfApart(pdf, createCheck(ctx.documentTimes)) : { problem: 'A PDF is required.' };
  if ('problem' in info) errs.add(pdfField, info.problem);
  const pages = 'pages' in info ? info.pages : undefined;
  const roles = checkRoles(def.roles, errs);
  const fields = await checkFields(ctx, def.fields ?? [], new Set(roles.map((r) => r.key)), pages, errs);
  for (const [i, team] of (def.teams ?? []).entries()) checkTeam(ctx.account, team, `teams[${i}]`, errs, false);
  errs.throwIfAny();

  const hash = sha256(pdf!);
  ctx.blobs.put(pdf!, hash);
  const filename = fitFilename(def.filename ?? `${def.name}.pdf`);
  return inTransaction(ctx, () => {
    const at = ctx.clock.now();
    recordBlob(ctx.db, hash, pdf!.length, pages!, at);
    const values = {
      name: def.name,
      sha256: hash,
      filename,
      roles: JSON.stringify(roles),
      fields: JSON.stringify(fields),
      at,
    };
    const templateId = id ?? uuid();
    if (id === undefined) {
      sql(
        ctx.db,
        `INSERT INTO templates (id, name, is_shared, library, sha256, filename, roles, fields, metadata, teams, created, updated)
        VALUES (@id, @name, @is_shared, @library, @sha256, @filename, @roles, @fields, @metadata, @teams, @at, @at)`,
      ).run({
        ...values,
        id: templateId,
        is_shared: def.is_shared ? 1 : 0,
        library: def.library ?? null,
        metadata: JSON.stringify(def.metadata ?? {}),
        teams: JSON.stringify(def.teams ?? []),
      });
    } else {
      // Members not given keep their values: replacing a definition is not a PATCH of metadata or teams.
      sql(
        ctx.db,
        `UPDATE templates SET name = @name, sha256 = @sha256, filename = @filename, roles = @roles, fields = @fields,
        is_shared = coalesce(@is_shared, is_shared), library = coalesce(@library, library),
        metadata = coalesce(@metadata, metadata), teams = coalesce(@teams, teams), updated = @at WHERE id = @id`,
      ).run({
        ...values,
        id: templateId,
        is_shared: def.is_shared === undefined ? null : def.is_shared ? 1 : 0,
        library: def.library ?? null,
        metadata: def.metadata ? JSON.stringify(def.metadata) : null,
        teams: def.teams ? JSON.stringify(def.teams) : null,
      });
    }
    enqueueTemplateEvent(ctx.db, id === undefined ? 'created' : 'updated', templateId, at);
    return toTemplate(ctx, findRow(ctx, templateId));
  });
}

function checkRoles(roles: { key: string; label?: string }[], errs: FieldErrors): TemplateRole[] {
  const seen = new Set<string>();
  return roles.map((r, i) => {
    if (seen.has(r.key)) errs.add(`roles[${i}].key`, `Duplicate role key "${r.key}".`);
    seen.add(r.key);
    return { key: r.key, label: r.label ?? r.key };
  });
}

async function checkFields(
  ctx: EngineContext,
  fields: TemplateFieldT[],
  roleKeys: Set<string>,
  pages: number | undefined,
  errs: FieldErrors,
): Promise<TemplateField[]> {
  const keys = new Set<string>();
  const checkRegex = await regexCheck(
    (f) => ctx.account.has(f),
    fields.some((f) => f.v_regex !== undefined),
  );
  return fields.map((f, j) => {
    const at = (m: string) => `fields[${j}].${m}`;
    const key = f.key ?? `${f.kind}-${j + 1}`;
    if (keys.has(key)) errs.add(at('key'), `Duplicate field key "${key}".`);
    keys.add(key);
    for (const [e, role] of (f.editor_roles ?? []).entries())
      if (!roleKeys.has(role))
        errs.add(at(`editor_roles[${e}]`), `"${role}" is not the key of a role of this template.`);
    if (f.page !== undefined && pages !== undefined && f.page > pages)
      errs.add(at('page'), `Page ${f.page} is past the end of the PDF (${pages} page${pages === 1 ? '' : 's'}).`);
    if (f.v_regex !== undefined) checkRegex(f.v_regex, at('v_regex'), errs);
    return { ...f, key };
  });
}

/** A download name within the 50-character filename limit of documents, keeping its extension. */
export function fitFilename(name: string): string {
  const clean = name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '-').trim() || 'template.pdf';
  if (clean.length <= 50) return clean;
  const ext = /\.[A-Za-z0-9]{1,8}$/.exec(clean)?.[0] ?? '';
  return clean.slice(0, 50 - ext.length) + ext;
}

/** The document a TemplateRequest stands for: the template's PDF and its fields, given to signers. */
export interface TemplateDocument {
  template: StoredTemplate;
  fields: StoredField[];
}

/**
 * Checks a TemplateRequest against its template and the Bundle's signers, and builds the document's
 * fields. A role without an assignment goes to the signer with the same key, when there is one.
 * Initial values: `field_values` first, then the Bundle's `tag_values` by Data Flow Tag, then defaults.
 */
export function templateDocument(
  ctx: EngineContext,
  d: TemplateRequestT,
  i: number,
  signerKeys: Set<string>,
  tagValues: Record<string, string | number>,
  errs: FieldErrors,
): TemplateDocument | undefined {
  const at = (f: string) => `documents[${i}].${f}`;
  const template = findStoredTemplate(ctx, d.template_id);
  if (!template) {
    errs.add(at('template_id'), `Document Template "${d.template_id}" was not found.`);
    return undefined;
  }
  const before = errs.list.length;
  const signerOf = assignRoles(template, d.assignments ?? [], signerKeys, 'a signer in this Bundle', at, errs);
  const values = new Map<string, string | number>();
  const fieldKeys = new Set(template.fields.map((f) => f.key));
  for (const [k, v] of (d.field_values ?? []).entries()) {
    if (!fieldKeys.has(v.key))
      errs.add(at(`field_values[${k}].key`), `"${v.key}" is not the key of a field of template "${template.name}".`);
    values.set(v.key, v.initial_value);
  }
  if (errs.list.length > before) return undefined;
  // Own members only: a tag may be named like an Object.prototype member ("constructor", "__proto__").
  const tagged = (tag: string | undefined) =>
    tag !== undefined && Object.hasOwn(tagValues, tag) ? tagValues[tag] : undefined;
  const fields = template.fields.map((tf) =>
    documentField(tf, signerOf, values.get(tf.key) ?? tagged(tf.data_flow_tag)),
  );
  return { template, fields };
}

/**
 * The signer of each role of a template document (Bundles, and envelope templates where the signers
 * are the envelope's roles): each role at most once, each signer one of `signerKeys`. A role left
 * out goes to the signer with the same key; a role with fields and no signer is an error.
 */
export function assignRoles(
  template: StoredTemplate,
  assignments: { role: string; signer: string }[],
  signerKeys: Set<string>,
  signerNoun: string,
  at: (f: string) => string,
  errs: FieldErrors,
): Map<string, string> {
  const roleKeys = new Set(template.roles.map((r) => r.key));
  const signerOf = new Map<string, string>();
  for (const [k, a] of assignments.entries()) {
    if (!roleKeys.has(a.role))
      errs.add(
        at(`assignments[${k}].role`),
        `"${a.role}" is not a role of template "${template.name}" (roles: ${[...roleKeys].join(', ') || 'none'}).`,
      );
    else if (signerOf.has(a.role)) errs.add(at(`assignments[${k}].role`), `Role "${a.role}" is assigned twice.`);
    if (!signerKeys.has(a.signer))
      errs.add(at(`assignments[${k}].signer`), `"${a.signer}" is not the key of ${signerNoun}.`);
    signerOf.set(a.role, a.signer);
  }
  for (const role of roleKeys) {
    if (signerOf.has(role)) continue;
    if (signerKeys.has(role)) signerOf.set(role, role);
    else if (template.fields.some((f) => f.editor_roles?.includes(role)))
      errs.add(
        at('assignments'),
        `Role "${role}" of template "${template.name}" has fields but is not assigned to a signer.`,
      );
  }
  return signerOf;
}

function documentField(
  tf: TemplateField,
  signerOf: Map<string, string>,
  value: string | number | undefined,
): StoredField {
  const { default_value, editor_roles, data_flow_tag: _tag, ...rest } = tf;
  const editors = (editor_roles ?? []).map((r) => signerOf.get(r)).filter((s): s is string => s !== undefined);
  const initial = value ?? default_value;
  return {
    ...rest,
    ...(editors.length ? { editors } : {}),
    ...(initial !== undefined ? { initial_value: initial } : {}),
  };
}
