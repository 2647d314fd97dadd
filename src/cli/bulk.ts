// Verbs that take several ids (or `-`: ids from stdin, one per line or space-separated): each id is
// tried, one summary is printed, and the exit code is EXIT.PARTIAL when any failed. A single id that
// fails keeps its own error and exit code, as before.
import { ApiError } from '../domain/errors.js';
import { CliError, EXIT, StateConflict } from './exitCodes.js';
import { UseCaseError } from '../app/failure.js';
import type { Factory } from './factory.js';
import { readAll } from './io.js';
import { note, printList } from './output/print.js';

export async function readIds(f: Factory, args: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const a of args) {
    if (a === '-') ids.push(...(await readAll(f.io.stdin)).split(/\s+/).filter(Boolean));
    else ids.push(a);
  }
  if (!ids.length) throw new CliError('Give one or more ids, or - to read them from stdin.', EXIT.USAGE);
  return [...new Set(ids)];
}

interface BulkRow {
  id: string;
  result: 'ok' | 'failed';
  detail: string;
}

/**
 * Runs `fn` for every id, one after the other. `describe` turns a success into the summary's detail
 * (a status, the signers reminded). With one id the result is shown by `single` instead, if given.
 */
export async function forEachId<T>(
  f: Factory,
  ids: string[],
  fn: (id: string) => Promise<T>,
  describe: (r: T) => string,
  single?: (r: T) => Promise<void>,
): Promise<void> {
  if (ids.length === 1 && single) return single(await fn(ids[0]));
  const rows: BulkRow[] = [];
  for (const id of ids) {
    try {
      rows.push({ id, result: 'ok', detail: describe(await fn(id)) });
    } catch (e) {
      if (ids.length === 1) throw e;
      const known =
        e instanceof ApiError || e instanceof CliError || e instanceof StateConflict || e instanceof UseCaseError;
      if (!known) throw e;
      rows.push({ id, result: 'failed', detail: e.message });
    }
  }
  await printList(
    f,
    rows,
    [
      { header: 'ID', value: (r) => r.id, kind: 'id' },
      { header: 'RESULT', value: (r) => r.result },
      { header: 'DETAIL', value: (r) => r.detail },
    ],
    (r) => r.id,
  );
  const failed = rows.filter((r) => r.result === 'failed');
  if (!f.options.json && !f.options.quiet)
    note(
      f,
      `${rows.length - failed.length} of ${rows.length} done${failed.length ? `, ${failed.length} failed` : ''}.`,
    );
  if (failed.length)
    throw new CliError(
      `${failed.length} of ${rows.length} failed: ${failed.map((r) => r.id).join(', ')}`,
      EXIT.PARTIAL,
    );
}
