// The fields of a stored document and who may fill them, and the signer-side checks of one value.
import type { FieldPlacement } from '../../service/hosting.js';
import { type Db, sql } from '../store/db.js';
import type { DocumentRow } from './read.js';

export interface StoredField extends FieldPlacement {
  label?: string;
  required?: boolean;
  format?: string;
  initial_value?: string | number;
  editors?: string[];
  search?: string;
}

export interface DocumentSpec {
  fields?: StoredField[];
  auto_placements?: StoredField[];
  pages?: number;
}

/** A document row's stored spec (its fields and page count; the intake's PreparedSpec as `S`). */
export const documentSpec = <S extends DocumentSpec = DocumentSpec>(d: Pick<DocumentRow, 'spec'>): S =>
  JSON.parse(d.spec) as S;

/** Placed and auto-placed fields of a document, in their stored order. */
export function fieldsOfDocument(d: Pick<DocumentRow, 'spec'>): StoredField[] {
  const spec = documentSpec(d);
  return [...(spec.fields ?? []), ...(spec.auto_placements ?? [])];
}

/** A field without editors is open to every signer; otherwise only to the signers it names. */
export const canEdit = (f: StoredField, packetKey: string) => !f.editors?.length || f.editors.includes(packetKey);

/** Kinds the engine fills for the signer at signing time when no value is given. */
export const AUTO_FILLED = new Set(['sig', 'ini', 'snm', 'tms']);

const PATTERNS: Record<string, { re: RegExp; what: string }> = {
  email: { re: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, what: 'an email address' },
  bank_routing: { re: /^\d{9}$/, what: 'a 9-digit bank routing number' },
  bank_account: { re: /^\d{4,17}$/, what: 'a bank account number (4 to 17 digits)' },
  letters: { re: /^[\p{L}\s'.-]+$/u, what: 'letters only' },
  numbers: { re: /^-?\d+(\.\d+)?$/, what: 'a number' },
  phone: { re: /^\+?[0-9][0-9 ().-]{6,}$/, what: 'a phone number' },
  ssn: { re: /^\d{3}-?\d{2}-?\d{4}$/, what: 'a social security number (123-45-6789)' },
  zip_code: { re: /^\d{5}(-\d{4})?$/, what: 'a ZIP code (12345 or 12345-6789)' },
};

/** ABA routing numbers carry a checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
function routingChecksumOk(v: string): boolean {
  const d = [...v].map(Number);
  return (3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!)) % 10 === 0;
}

const TRUE = new Set(['true', '1', 'yes', 'on', 'checked', 'x']);
const FALSE = new Set(['false', '0', 'no', 'off', 'unchecked', '']);

/**
 * Checks and normalises a signer's value for a field. Returns the value to store, or throws a
 * message. `regex` runs an RE2 full match (loaded by the caller only when some field needs it).
 */
export function checkValue(f: StoredField, raw: string, regex: (pattern: string, value: string) => boolean): string {
  if (f.kind === 'chk') {
    const v = raw.trim().toLowerCase();
    if (TRUE.has(v)) return 'true';
    if (FALSE.has(v)) return 'false';
    throw new Error(`A checkbox takes true or false, not "${raw}".`);
  }
  if (f.kind === 'dat') {
    const v = raw.trim();
    if (
      !/^\d{4}-\d{2}-\d{2}$/.test(v) ||
      Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ||
      new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v
    )
      throw new Error(`A date is written YYYY-MM-DD, not "${raw}".`);
    return v;
  }
  if (raw === '') return raw;
  if (f.v_regex !== undefined) {
    if (!regex(f.v_regex, raw)) throw new Error(f.v_regex_msg || `The value does not match the pattern ${f.v_regex}.`);
    return raw;
  }
  if (f.v_pattern) {
    const p = PATTERNS[f.v_pattern];
    if (p && (!p.re.test(raw.trim()) || (f.v_pattern === 'bank_routing' && !routingChecksumOk(raw.trim()))))
      throw new Error(`The value must be ${p.what}.`);
  }
  // Bounds are numeric for numbers, and a length in characters for everything else.
  const numeric = f.v_pattern === 'numbers';
  const measure = numeric ? Number(raw) : [...raw].length;
  const unit = numeric ? '' : ' characters';
  if (f.v_min !== undefined && measure < f.v_min) throw new Error(`The value must be at least ${f.v_min}${unit}.`);
  if (f.v_max !== undefined && measure > f.v_max) throw new Error(`The value must be at most ${f.v_max}${unit}.`);
  return raw;
}

/** Whether a stored value counts as filled for a required field (an unticked box does not). */
export const isFilled = (f: StoredField, value: string | undefined) =>
  value !== undefined && value !== '' && !(f.kind === 'chk' && value !== 'true');

/** The values stored for a Bundle's fields, by `doc_key/field_key`. */
export function storedFieldValues(db: Db, bundleSeq: number): Map<string, string> {
  const rows = sql(db, 'SELECT doc_key, field_key, value FROM field_values WHERE bundle_seq = ?').all(bundleSeq) as {
    doc_key: string;
    field_key: string;
    value: string;
  }[];
  return new Map(rows.map((v) => [`${v.doc_key}/${v.field_key}`, v.value]));
}

/** A signer's initials, as the initials field fills itself: the first letter of each word, upper case. */
export const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => [...w][0]!.toUpperCase())
    .join('');
