// The body of esign batch status (declared in status.ts): the journal reader (and SQLite, for its
// lock) loads here, not at every start.
import { listJournals, readJournal } from '../../../app/batch/journal.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { fieldColumns, fieldsOf, note, printList, printObject, writeJson } from '../../output/print.js';
import type { Run } from '../../verb.js';
import type { status } from './status.js';

export const run: Run<typeof status> = async (f, _o, id) => {
  const dir = await f.journalDir();
  const summarise = (batch: string, path: string) => {
    const { meta, rows } = readJournal(path);
    // A row whose custom_key a Bundle had before this batch was not sent by it: counted apart.
    const c = { sent: 0, exists: 0, failed: 0, in_flight: 0 };
    const failed: { row: number; custom_key: string; error: string }[] = [];
    for (const e of rows.values()) {
      if (e.s === 'sent' && e.exists) c.exists++;
      else if (e.s === 'sent') c.sent++;
      else if (e.s === 'failed') {
        c.failed++;
        failed.push({ row: e.row, custom_key: e.key, error: e.error ?? '' });
      } else c.in_flight++;
    }
    failed.sort((a, b) => a.row - b.row);
    return {
      batch,
      csv: meta?.csv ?? '',
      started: meta?.started ?? '',
      backend: meta?.backend ?? '',
      ...c,
      failed_rows: failed,
      journal: path,
    };
  };
  if (!id) {
    const all = listJournals(dir)
      .map((j) => summarise(j.batch, j.path))
      .sort((a, b) => b.started.localeCompare(a.started));
    return printList(
      f,
      all,
      fieldColumns(['batch', 'csv', 'started', 'sent', 'exists', 'failed', 'in_flight']),
      (b) => b.batch,
    );
  }
  const j = listJournals(dir).find((x) => x.batch === id);
  if (!j) throw new CliError(`No batch "${id}" in ${dir} (esign batch status lists them).`, EXIT.NOT_FOUND);
  const s = summarise(j.batch, j.path);
  if (f.options.json) return writeJson(f, s);
  await printObject(
    f,
    s,
    [
      ...fieldsOf(s, ['batch', 'csv', 'started', 'backend', 'sent']),
      ['exists', `${s.exists}${s.exists ? ' (custom_key already on the backend: not sent)' : ''}`],
      ['failed', s.failed],
      ['in flight', `${s.in_flight}${s.in_flight ? ' (looked up by custom_key on the next run)' : ''}`],
      ['journal', s.journal],
    ],
    s.batch,
  );
  if (!f.options.quiet)
    for (const x of s.failed_rows) note(f, `row ${x.row}${x.custom_key ? ` (${x.custom_key})` : ''}: ${x.error}`);
};
