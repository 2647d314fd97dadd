// One CSV row -> one create request, from one of three sources (a BundleRequest spec with
// {{column}} placeholders, a Document Template, an Envelope Template), plus the columns named after
// BundleRequest members. Every request member remembers the column it came from, so a problem is
// reported as `row 17, column ada.email: ...`.
import { readFile, stat } from 'node:fs/promises';
import { ApiError } from '../../domain/errors.js';
import type { AttachedFile, DocumentTemplate, EnvelopeTemplate } from '../../service/types.js';
import { type DeliverVia, contactProblems } from '../../domain/delivery.js';
import type { CsvRow } from './csv.js';
import type { FileCache } from './fileCache.js';
import { safeLine } from '../sanitize.js';
import {
  type BuildContext,
  type BundleIntent,
  type SignerIntent,
  buildBundleRequest,
  intentOfSpec,
} from '../bundleRequest.js';
import { UseCaseError } from '../failure.js';

export type Source =
  | { kind: 'spec'; spec: Record<string, unknown>; baseDir: string }
  | { kind: 'template'; template: DocumentTemplate }
  | { kind: 'envelope'; template: EnvelopeTemplate };

export interface Problem {
  column?: string;
  field?: string;
  message: string;
}

export interface RowRequest {
  endpoint: 'bundle' | 'envelope';
  body: Record<string, unknown>;
  files: AttachedFile[];
  /** The row's idempotency key: its custom_key, or `<batch-id>-<row>`. */
  key: string;
  signers: number;
  /** Added by the tags operation right after the create, as `bundle create` does (not a creation member). */
  tags: string[];
  /** The row's values, hashed (identity.ts), journaled with each entry of the row. */
  fp?: string;
  /** The column a request member (`packets[0].email`) came from, for the server's field errors. */
  columnOf(field: string): string | undefined;
}

/** A row built and checked: the request when it is valid, and its key whenever it is known. */
export interface BuiltRow {
  request?: RowRequest;
  problems: Problem[];
  key?: string;
  columnOf(field: string): string | undefined;
}

type MemberKind = 'string' | 'bool' | 'int' | 'list' | 'status';

/** Columns named after BundleRequest members set them on every row, whatever the source. */
const MEMBER_COLUMNS: Record<string, MemberKind> = {
  label: 'string',
  custom_key: 'string',
  email_subject: 'string',
  email_message: 'string',
  sms_message: 'string',
  requester_name: 'string',
  requester_email: 'string',
  team: 'string',
  expires: 'string',
  is_test: 'bool',
  in_order: 'bool',
  cc_sender: 'bool',
  send_reminders: 'bool',
  reminder_offset: 'int',
  reminder_interval: 'int',
  reminder_expires: 'int',
  cc_emails: 'list',
  tags: 'list',
  status: 'status',
};

const SIGNER_PARTS = ['name', 'email', 'phone', 'deliver_via'] as const;
const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;

/** How each header column is used; `problems` lists columns that map to nothing (and other header errors). */
export interface ColumnPlan {
  header: string[];
  problems: Problem[];
}

function templateFieldKeys(t: DocumentTemplate): Set<string> {
  return new Set(t.fields.map((f) => f.key).filter((k): k is string => typeof k === 'string'));
}

function placeholdersIn(v: unknown, into: Set<string>): void {
  if (typeof v === 'string') for (const m of v.matchAll(PLACEHOLDER)) into.add(m[1]);
  else if (Array.isArray(v)) v.forEach((x) => placeholdersIn(x, into));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => placeholdersIn(x, into));
}

/** Checks the header against the source once, before any row is read. */
export function planColumns(source: Source, header: string[]): ColumnPlan {
  const problems: Problem[] = [];
  const columns = new Set(header);
  const used = new Set<string>();
  if (source.kind === 'spec') {
    const names = new Set<string>();
    placeholdersIn(source.spec, names);
    for (const n of names) {
      if (columns.has(n)) used.add(n);
      else problems.push({ message: `the spec's placeholder {{${n}}} names no column of the CSV` });
    }
  }
  const roles =
    source.kind === 'template'
      ? source.template.roles.map((r) => r.key)
      : source.kind === 'envelope'
        ? source.template.signers.map((s) => s.key)
        : [];
  const fieldKeys = source.kind === 'template' ? templateFieldKeys(source.template) : undefined;
  for (const c of header) {
    if (used.has(c) || c in MEMBER_COLUMNS) continue;
    const dot = c.indexOf('.');
    const [prefix, rest] = dot > 0 ? [c.slice(0, dot), c.slice(dot + 1)] : [c, ''];
    if (source.kind !== 'spec' && rest) {
      if (prefix === 'field') {
        if (!fieldKeys || fieldKeys.has(rest)) continue;
        problems.push({
          column: c,
          message: `Document Template ${source.template.id} has no field "${rest}" (fields: ${[...fieldKeys].join(', ') || 'none'})`,
        });
        continue;
      }
      if (prefix === 'tag') continue;
      if ((SIGNER_PARTS as readonly string[]).includes(rest)) {
        if (roles.includes(prefix)) continue;
        const what = source.kind === 'template' ? 'role' : 'signer role';
        problems.push({
          column: c,
          message: `${source.kind === 'template' ? 'Document' : 'Envelope'} Template ${source.template.id} has no ${what} "${prefix}" (roles: ${roles.join(', ') || 'none'})`,
        });
        continue;
      }
    }
    problems.push({
      column: c,
      message: `maps to nothing: not a {{placeholder}} of the source, not a BundleRequest member (${Object.keys(MEMBER_COLUMNS).join(', ')})${source.kind === 'spec' ? '' : ', not ROLE.name|email|phone|deliver_via, field.KEY or tag.NAME'}`,
    });
  }
  return { header, problems };
}

/** Where each request member came from: request path -> column. */
type Provenance = [path: string, column: string][];

function fill(v: unknown, values: Record<string, string>, path: string, prov: Provenance): unknown {
  if (typeof v === 'string') {
    const whole = /^\{\{\s*([^{}]+?)\s*\}\}$/.exec(v);
    let first: string | undefined;
    const out = v.replace(PLACEHOLDER, (_m, name: string) => {
      first ??= name;
      return values[name] ?? '';
    });
    if (first) prov.push([path, first]);
    // A member that is only a placeholder is left out when its cell is empty.
    return whole && out === '' ? undefined : out;
  }
  if (Array.isArray(v)) return v.map((x, i) => fill(x, values, `${path}[${i}]`, prov)).filter((x) => x !== undefined);
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const y = fill(x, values, path ? `${path}.${k}` : k, prov);
      if (y !== undefined) o[k] = y;
    }
    return o;
  }
  return v;
}

const BOOL: Record<string, boolean> = {
  true: true,
  yes: true,
  y: true,
  '1': true,
  false: false,
  no: false,
  n: false,
  '0': false,
};

function member(kind: MemberKind, raw: string): { value?: unknown; problem?: string } {
  const v = raw.trim();
  switch (kind) {
    case 'bool':
      return v.toLowerCase() in BOOL
        ? { value: BOOL[v.toLowerCase()] }
        : { problem: `expected true or false, got "${raw}"` };
    case 'int':
      return /^\d+$/.test(v) ? { value: Number(v) } : { problem: `expected a whole number, got "${raw}"` };
    case 'list':
      return {
        value: v
          .split(';')
          .map((s) => s.trim())
          .filter(Boolean),
      };
    case 'status':
      return v === 'dr' || v.toLowerCase() === 'draft'
        ? { value: 'dr' }
        : { problem: `expected "dr" (a draft) or empty (send), got "${raw}"` };
    default:
      return { value: raw };
  }
}

function signerCells(
  values: Record<string, string>,
  role: string,
  prov: Provenance,
  path: string,
): SignerIntent | undefined {
  const p: SignerIntent = { key: role };
  for (const part of SIGNER_PARTS) {
    const cell = values[`${role}.${part}`];
    if (cell === undefined || cell === '') continue;
    p[part] = cell;
    prov.push([`${path}.${part}`, `${role}.${part}`]);
  }
  return Object.keys(p).length > 1 ? p : undefined;
}

/** The request member a field error names, back to its column: the longest matching path wins. */
function columnFor(prov: Provenance, field: string): string | undefined {
  let best: [string, string] | undefined;
  for (const [path, column] of prov)
    if (
      (field === path || field.startsWith(`${path}.`) || field.startsWith(`${path}[`)) &&
      (!best || path.length > best[0].length)
    )
      best = [path, column];
  return best?.[1];
}

export interface BuildOptions {
  batchId: string;
  /** Read each row's files (a real send); a check only makes sure they exist. */
  readFiles: boolean;
  /** Reads each file once for all rows of a run (writes: issue 26). */
  files?: FileCache;
  /**
   * Rows whose request the schemas passed earlier in this run (send's counting pass): not parsed again.
   * The backend still validates every create, so a row changed since is refused there, not sent wrong.
   */
  schemaPassed?: (row: number) => boolean;
  /** The key of a row whose values an earlier run of the CSV had in flight (identity.ts): looked up before any create. */
  keyFor?: (row: number) => string | undefined;
  /**
   * Where a template's roles are read when they go to the signers in order (once per template: see
   * RowChecker). Absent in a count, which checks each request's shape only: the roles are then left out.
   */
  templates?: BuildContext['service'];
}

/** The intent of a row made from a template or an envelope template: its signers, field values and tag values. */
function templateIntent(
  source: Exclude<Source, { kind: 'spec' }>,
  values: CsvRow['values'],
  prov: Provenance,
  problems: Problem[],
): { intent: BundleIntent; endpoint: RowRequest['endpoint'] } {
  const signers: SignerIntent[] = [];
  const fieldValues: { key: string; initial_value: string }[] = [];
  const roles =
    source.kind === 'template'
      ? source.template.roles.map((r) => r.key)
      : [...source.template.signers].sort((a, b) => a.order - b.order).map((s) => s.key);
  for (const role of roles) {
    const p = signerCells(values, role, prov, `packets[${signers.length}]`);
    if (p) signers.push(p);
  }
  const tagValues: Record<string, string> = {};
  for (const [c, v] of Object.entries(values)) {
    if (v === '') continue;
    if (c.startsWith('field.')) {
      const base = source.kind === 'template' ? 'documents[0].field_values' : 'envelope_template.field_values';
      prov.push([`${base}[${fieldValues.length}]`, c]);
      fieldValues.push({ key: c.slice(6), initial_value: v });
    } else if (c.startsWith('tag.')) {
      prov.push([`tag_values.${c.slice(4)}`, c]);
      tagValues[c.slice(4)] = v;
    }
  }
  const intent: BundleIntent = { signers, documents: [], settings: {} };
  if (Object.keys(tagValues).length) intent.settings.tag_values = tagValues;
  const field_values = fieldValues.length ? { field_values: fieldValues } : {};
  if (source.kind === 'template')
    intent.documents.push({
      template_id: source.template.id,
      assignments: signers.map((p) => ({ role: p.key as string, signer: p.key as string })),
      ...field_values,
    });
  else intent.envelope = { template_id: source.template.id, ...field_values };
  if (!signers.length)
    problems.push({
      message: `no signer: fill at least one of the ${roles.map((r) => `${r}.email`).join(', ')} columns`,
    });
  return { intent, endpoint: source.kind === 'template' ? ('bundle' as const) : ('envelope' as const) };
}

/** A document's file as the request builder asks for it: read (or, in a count, found) here, a problem naming its column. */
function rowFiles(o: BuildOptions, prov: Provenance, problems: Problem[]) {
  return async (path: string, _given: string, at: string): Promise<Buffer | 'checked' | undefined> => {
    // The file travels as an attached file: a problem with its bytes names the column of its path.
    const column = columnFor(prov, at);
    if (column) prov.push([at.replace(/file_path$/, 'file_index'), column]);
    try {
      if (o.readFiles) return await (o.files ? o.files.read(path) : readFile(path));
      if (!(await (o.files ? o.files.isFile(path) : stat(path).then((s) => s.isFile()))))
        throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
      return 'checked';
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      problems.push({
        column,
        field: at,
        message: `${path}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
      });
      return undefined;
    }
  };
}

/** Builds and validates one row against the same schemas as a real create. */
export async function buildRow(source: Source, row: CsvRow, o: BuildOptions): Promise<BuiltRow> {
  const problems: Problem[] = [];
  const prov: Provenance = [];
  const columnOf = (field: string) => columnFor(prov, field);
  if (row.problem)
    return { problems: [{ message: row.problem }], key: row.values.custom_key?.trim() || undefined, columnOf };
  const { values } = row;
  const { intent, endpoint } =
    source.kind === 'spec'
      ? {
          // A new tree: every object and array of the spec is made anew, filled in.
          intent: intentOfSpec(fill(source.spec, values, '', prov) as Record<string, unknown>),
          endpoint: 'bundle' as const,
        }
      : templateIntent(source, values, prov, problems);

  for (const [c, kind] of Object.entries(MEMBER_COLUMNS)) {
    const cell = values[c];
    if (cell === undefined || cell.trim() === '') continue;
    const m = member(kind, cell);
    if (m.problem) problems.push({ column: c, message: m.problem });
    else {
      intent.settings[c] = m.value;
      prov.push([c, c]);
    }
  }

  let built: { body: Record<string, unknown>; files: AttachedFile[] };
  try {
    built = await buildBundleRequest(intent, {
      service: o.templates,
      baseDir: source.kind === 'spec' ? source.baseDir : process.cwd(),
      readPath: rowFiles(o, prov, problems),
    });
  } catch (e) {
    if (!(e instanceof UseCaseError)) throw e;
    problems.push({ message: e.message });
    return { problems, key: values.custom_key?.trim() || undefined, columnOf };
  }
  const { body, files } = built;

  const key =
    typeof body.custom_key === 'string' && body.custom_key.trim()
      ? body.custom_key.trim()
      : (o.keyFor?.(row.row) ?? `${o.batchId}-${row.row}`);
  body.custom_key = key;
  // Tags are not a creation member: taken out here and added right after the create.
  const tags = body.tags;
  delete body.tags;

  const S = await import('../../domain/schemas.js');
  const refused = (e: unknown) => {
    if (!(e instanceof ApiError)) throw e;
    const errors = e.errors.length ? e.errors : [{ field: 'non_field_errors', message: e.message }];
    for (const fe of errors) {
      const column = columnFor(prov, fe.field);
      problems.push({ column, field: column ? undefined : fe.field, message: fe.message });
    }
  };
  if (!o.schemaPassed?.(row.row))
    try {
      S.parseOr400(endpoint === 'envelope' ? S.BundleTemplateRequest : S.BundleRequest, body);
    } catch (e) {
      refused(e);
    }
  try {
    if (tags !== undefined) S.parseOr400(S.TagsRequest, { tags });
  } catch (e) {
    refused(e);
  }
  for (const p of contactRules(source, body))
    problems.push({
      column: columnFor(prov, p.field),
      field: columnFor(prov, p.field) ? undefined : p.field,
      message: p.message,
    });
  if (problems.length) return { problems, key, columnOf };
  return {
    request: {
      endpoint,
      body,
      files,
      key,
      tags: (tags as string[] | undefined) ?? [],
      signers: Array.isArray(body.packets) ? body.packets.length : 0,
      columnOf,
    },
    problems,
    key,
    columnOf,
  };
}

/**
 * The rules of reaching each signer that the request alone decides (domain/delivery.ts, the same the
 * engine applies): a row refused by them at the create is refused here first. A signer given by
 * person_id is left to the server, which knows the Person.
 */
function contactRules(source: Source, body: Record<string, unknown>): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  const packets = Array.isArray(body.packets) ? (body.packets as Record<string, unknown>[]) : [];
  const roles = source.kind === 'envelope' ? new Map(source.template.signers.map((s) => [s.key, s])) : undefined;
  packets.forEach((p, i) => {
    if (!p || typeof p !== 'object' || p.person_id !== undefined) return;
    const role = roles?.get(String(p.key));
    const contact = {
      deliver_via: p.deliver_via as DeliverVia | undefined,
      email: typeof p.email === 'string' ? p.email : undefined,
      phone: typeof p.phone === 'string' ? p.phone : undefined,
      auth_sms: p.auth_sms === true || role?.auth_sms === true,
    };
    if (source.kind !== 'envelope' && !p.name)
      out.push({ field: `packets[${i}].name`, message: 'This field is required.' });
    for (const c of contactProblems(contact)) out.push({ field: `packets[${i}].${c.field}`, message: c.message });
  });
  return out;
}

/** `row 17, column ada.email: ...` */
export function describeProblem(row: number | undefined | 'none', p: Problem): string {
  const where = [
    row === 'none' ? '' : row !== undefined ? `row ${row}` : 'header',
    p.column ? `column ${p.column}` : p.field ? `field ${p.field}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return safeLine(where ? `${where}: ${p.message}` : p.message);
}

/** Example signers of an example row, one per role: distinct, so no two roles read as one person. */
const PEOPLE = [
  ['Ada Lovelace', 'ada@example.com', '+15551234567'],
  ['Bob Example', 'bob@example.com', '+15557654321'],
  ['Cy Newman', 'cy@example.com', '+15550100100'],
] as const;

/**
 * The header (and one example row) a source needs: what `batch csv-template` prints. The example
 * row passes `batch check` itself: a role that signs with an SMS pin gets a phone, and a document's
 * file placeholder names a PDF.
 */
export function templateColumns(source: Source): { header: string[]; example: string[] } {
  const cols: [string, string][] = [];
  if (source.kind === 'spec') {
    const where = new Map<string, string>();
    placeholderPaths(source.spec, '', where);
    for (const [n, path] of where) cols.push([n, exampleAt(path) ?? exampleFor(n)]);
  } else {
    const roles =
      source.kind === 'template'
        ? source.template.roles.map((r) => ({ key: r.key, sms: false }))
        : [...source.template.signers].sort((a, b) => a.order - b.order).map((s) => ({ key: s.key, sms: s.auth_sms }));
    roles.forEach((r, i) => {
      const [name, email, phone] = PEOPLE[i % PEOPLE.length];
      cols.push([`${r.key}.name`, name], [`${r.key}.email`, email]);
      if (r.sms) cols.push([`${r.key}.phone`, phone]);
    });
    if (source.kind === 'template') for (const k of templateFieldKeys(source.template)) cols.push([`field.${k}`, '']);
  }
  // A member column overrides the source's value on every row: offered only where the source sets none.
  const sets = (member: string) =>
    cols.some(([c]) => c === member) || (source.kind === 'spec' && source.spec[member] !== undefined);
  if (!sets('label')) cols.push(['label', 'Agreement for Ada Lovelace']);
  if (!sets('custom_key')) cols.push(['custom_key', 'row-1']);
  return { header: cols.map(([c]) => c), example: cols.map(([, v]) => v) };
}

/** Each placeholder of a spec and the member it first fills (`packets[1].email`). */
function placeholderPaths(v: unknown, path: string, into: Map<string, string>): void {
  if (typeof v === 'string') for (const m of v.matchAll(PLACEHOLDER)) if (!into.has(m[1])) into.set(m[1], path);
  if (Array.isArray(v)) v.forEach((x, i) => placeholderPaths(x, `${path}[${i}]`, into));
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) placeholderPaths(x, path ? `${path}.${k}` : k, into);
}

/** An example by the member a placeholder fills: signer i's name, email or phone, a document's file. */
function exampleAt(path: string): string | undefined {
  const signer = /^packets\[(\d+)\]\.(name|email|phone)$/.exec(path);
  if (signer) {
    const [name, email, phone] = PEOPLE[Number(signer[1]) % PEOPLE.length];
    return { name, email, phone }[signer[2] as 'name' | 'email' | 'phone'];
  }
  if (/^documents\[\d+\]\.file_path$/.test(path)) return 'contract.pdf';
  return undefined;
}

function exampleFor(column: string): string {
  if (/email/i.test(column)) return 'ada@example.com';
  if (/phone/i.test(column)) return '+15551234567';
  if (/name/i.test(column)) return 'Ada Lovelace';
  if (/(file|path|pdf)/i.test(column)) return 'contract.pdf';
  return '';
}
