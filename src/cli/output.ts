// Output as GUIDE.md sets it: data on stdout only; a table or key/value view on a TTY, tab-separated
// rows when piped, `--json` for the API object, `-q` for ids. chalk and cli-table3 load only for a TTY.
import { stripControl } from './sanitize.js';

export interface OutputOptions {
  json?: boolean;
  quiet?: boolean;
}

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

const isTty = () => process.stdout.isTTY === true;

function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(text).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return stripControl(String(v));
}

/** Tab-separated output must stay one record per line. */
const cell = (v: unknown) => text(v).replace(/[\t\r\n]+/g, ' ');

export function writeJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export async function printList<T>(rows: T[], columns: Column<T>[], opts: OutputOptions, id: (row: T) => string, json: unknown = rows): Promise<void> {
  if (opts.json) return writeJson(json);
  if (opts.quiet) return void process.stdout.write(rows.map((r) => `${id(r)}\n`).join(''));
  if (!isTty()) {
    process.stdout.write(rows.map((r) => `${columns.map((c) => cell(c.value(r))).join('\t')}\n`).join(''));
    return;
  }
  if (!rows.length) {
    process.stderr.write('No results.\n');
    return;
  }
  const [{ default: Table }, { default: chalk }] = await Promise.all([import('cli-table3'), import('chalk')]);
  const table = new Table({
    head: columns.map((c) => chalk.bold(c.header)),
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const r of rows) table.push(columns.map((c) => colourStatus(chalk, c.header, text(c.value(r)))));
  process.stdout.write(`${table.toString()}\n`);
}

/** A single object: key/value pairs (TTY or piped), the object itself with --json, its id with -q. */
export async function printObject(obj: object, pairs: [string, unknown][], opts: OutputOptions, id?: string): Promise<void> {
  if (opts.json) return writeJson(obj);
  if (opts.quiet) return void (id !== undefined && process.stdout.write(`${id}\n`));
  if (!isTty()) {
    process.stdout.write(pairs.map(([k, v]) => `${k}\t${cell(v)}\n`).join(''));
    return;
  }
  const { default: chalk } = await import('chalk');
  const width = Math.max(...pairs.map(([k]) => k.length));
  process.stdout.write(pairs.map(([k, v]) => `${chalk.bold(k.padEnd(width))}  ${colourStatus(chalk, k, text(v))}\n`).join(''));
}

type Chalk = typeof import('chalk').default;
function colourStatus(chalk: Chalk, header: string, value: string): string {
  if (!/status/i.test(header)) return value;
  if (['co', 'fi'].includes(value)) return chalk.green(value);
  if (['ca', 'ex', 'fa', 'de'].includes(value)) return chalk.red(value);
  if (['dr', 'pe', 'ne'].includes(value)) return chalk.yellow(value);
  return chalk.cyan(value);
}

export const note = (message: string) => process.stderr.write(`${message}\n`);

/** An object of metadata as `key=value` items (shown joined by commas). */
export const keyValueItems = (o: Record<string, unknown> | null | undefined) =>
  Object.entries(o ?? {}).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);

/** A delete has no object to show: `{id, deleted: true}` with --json, the id with -q, else a note on stderr. */
export function printDeleted(opts: OutputOptions, what: string, id: string): void {
  if (opts.json) return writeJson({ id, deleted: true });
  if (opts.quiet) return void process.stdout.write(`${id}\n`);
  note(`Deleted ${what} ${id}.`);
}
