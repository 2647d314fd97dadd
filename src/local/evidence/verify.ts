// POST /verify/: does this SHA-256 belong to a signed PDF, combined PDF or Certificate of Evidence
// of a completed Bundle?
import { FieldErrors } from '../../domain/errors.js';
import type { BundleStatus } from '../../domain/enums.js';
import type { VerifyResult } from '../../service/types.js';
import { type Db, sql } from '../store/db.js';

export const SHA256_HEX = /^[0-9a-f]{64}$/;

export function verifyHash(db: Db, input: string): VerifyResult {
  const hash = String(input ?? '')
    .trim()
    .toLowerCase();
  if (!SHA256_HEX.test(hash)) {
    const errs = new FieldErrors();
    errs.add('hash', 'A SHA-256 hash written as 64 hexadecimal digits.');
    errs.throwIfAny();
  }
  const row = sql(
    db,
    `SELECT f.kind, b.id, b.status, b.sent, b.completed_at FROM produced_files f JOIN bundles b ON b.seq = f.bundle_seq
    WHERE f.sha256 = ? AND b.status = 'co' AND f.kind IN ('signed_pdf', 'combined_pdf', 'coe_pdf') ORDER BY CASE f.kind WHEN 'signed_pdf' THEN 0 WHEN 'combined_pdf' THEN 1 ELSE 2 END LIMIT 1`,
  ).get(hash) as
    | {
        kind: 'signed_pdf' | 'combined_pdf' | 'coe_pdf';
        id: string;
        status: BundleStatus;
        sent: string | null;
        completed_at: string | null;
      }
    | undefined;
  if (!row)
    return {
      status: 'no_match',
      message: 'No completed Bundle has a document with this hash.',
      sha256: hash,
      document_type: null,
      signed_at: null,
      envelope: null,
    };
  const what = { signed_pdf: 'a signed PDF', combined_pdf: 'the combined PDF', coe_pdf: 'a Certificate of Evidence' }[
    row.kind
  ];
  return {
    status: 'match',
    message: `The file is ${what} of Bundle ${row.id}.`,
    sha256: hash,
    document_type: row.kind,
    signed_at: row.completed_at,
    envelope: { bundle_slug: row.id, status: row.status, sent: row.sent, completed_at: row.completed_at },
  };
}
