// The body of esign logs tail: the filter checked before anything is asked, then one line (or one
// JSON object) per request, as they come.
import { safeJson, safeLine } from '../../../app/sanitize.js';
import { ApiError } from '../../../domain/errors.js';
import { operationRow } from '../../../service/operationTable.js';
import { MAX_BACKLOG, parseRequestFilter } from '../../../service/requestLog.js';
import type { RequestLogEntry } from '../../../service/types.js';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { intArg } from '../../run.js';
import type { OptionsOf } from '../../verb.js';
import type { tail } from './tail.js';

type TailOptions = OptionsOf<typeof tail>;

const FLAG_OF: Record<string, string> = { status: '--status', method: '--method', path: '--path' };

function filterOf(o: TailOptions) {
  try {
    const filter = parseRequestFilter({ status: o.status, method: o.method, path: o.path, operation: o.operation });
    if (filter.operation !== undefined && !operationRow(filter.operation))
      throw new CliError(`--operation ${o.operation}: no such operation (esign api lists them).`, EXIT.USAGE);
    return filter;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const [first] = e.errors;
    throw new CliError(`${FLAG_OF[first?.field ?? ''] ?? first?.field}: ${first?.message ?? e.message}`, EXIT.USAGE);
  }
}

/** One request as a line: aligned on a terminal, tab-separated when piped. */
function line(e: RequestLogEntry, tty: boolean): string {
  const cells = [
    e.time,
    e.method,
    String(e.status),
    `${e.ms} ms`,
    safeLine(e.path),
    e.operation ?? '-',
    e.key_id ? `key ${e.key_id}` : 'no key',
  ];
  if (!tty) return cells.join('\t');
  const [time, method, status, ms, path, op, key] = cells;
  return `${time}  ${method!.padEnd(6)} ${status}  ${ms!.padStart(9)}  ${path}  ${op}  ${key}`;
}

export async function followLog(f: Factory, o: TailOptions): Promise<void> {
  const filter = filterOf(o);
  const backlog = intArg(o.lines, '--lines', 0);
  if (backlog > MAX_BACKLOG) throw new CliError(`--lines must be at most ${MAX_BACKLOG}, got ${backlog}.`, EXIT.USAGE);
  const service = await f.service();
  const sandbox = await service.describeSandbox();
  if (!sandbox.request_log)
    throw new CliError(
      `${await f.backendLabel()} keeps no request log (esign serve does; the hosted service does not).`,
      EXIT.USAGE,
    );
  const tty = f.io.out.isTTY === true;
  await service.followRequests({ filter, backlog, follow: o.follow }, (e) => {
    f.io.out.write(f.options.json ? `${safeJson(e)}\n` : `${line(e, tty)}\n`);
  });
}
