// Every CSV esign writes goes through here. A cell that starts with = + - @ tab or CR is a formula
// (or can become one) to a spreadsheet that opens the file: it is written with a leading ' so it
// stays text. esign's own reader takes that ' off again (see restoreCell), so a file esign wrote,
// such as the example row of `batch csv-template`, reads back as it was meant.
import { stringify } from 'csv-stringify/sync';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEUTRALISED = /^'[=+\-@\t\r]/;

/** A cell a spreadsheet would run, made text. */
const neutraliseCell = (v: string): string => (FORMULA_START.test(v) ? `'${v}` : v);

/** What esign wrote with neutraliseCell, as it was. */
export const restoreCell = (v: string): string => (NEUTRALISED.test(v) ? v.slice(1) : v);

/** CSV records (RFC 4180 quoting), every text cell neutralised. */
export function csvRecords(records: unknown[][]): string {
  return stringify(records, { cast: { string: neutraliseCell } });
}
