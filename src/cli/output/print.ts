// Output by the rules of docs/cli.md (Output and scripting): data on stdout only; a table or
// key/value view on a TTY, tab-separated rows when piped, `--json` for the API object, `-q` for ids. chalk and the table fitting load only for a TTY.
import { bundleStateWord, docStateWord, packetStateWord } from '../../domain/states.js';
import { type IO, pagerCommand } from '../io.js';
import { cutLeft, fitLine, fitWidths, isIsoTime, shortTime, timeIn, width } from './fit.js';
import { safeJson, stripControl } from '../../app/sanitize.js';

export interface OutputOptions {
  json?: boolean;
  quiet?: boolean;
  /** false with --no-pager. */
  pager?: boolean;
}

/** Where output goes and how: the Factory is one. */
export interface Out {
  io: IO;
  options: OutputOptions;
  /** The backend's clock in epoch ms: relative times are measured against it (default: this machine's). */
  now?(): number;
}

/**
 * What a column holds, for how a terminal shows it (piped output always shows the raw value):
 * ids are never truncated, states are words ("Sent", "Complete"), times are relative or short
 * (`time`, and any ISO time in a column of no kind: "2h ago", "Nov 21 09:42") or, on a timeline
 * where many rows share a minute, to the second (`clock`: "10:42:05"; `dated`: "Nov 21 10:42:05" on every row; `log` in a table of log rows:
 * "Nov 21 10:42" on another day), in the local zone; `http` is an HTTP status (0: "none"), `yes-no` a boolean.
 */
export type ColumnKind =
  | 'text'
  | 'id'
  | 'time'
  | 'clock'
  | 'dated'
  | 'log'
  | 'path'
  | 'bundle-status'
  | 'packet-status'
  | 'doc-status'
  | 'http'
  | 'yes-no';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  kind?: ColumnKind;
  /** On a terminal too narrow for the table, higher keeps its width longer (default 0). */
  priority?: number;
  /**
   * A cell wider than its column on a terminal shows `head` instead, and `lines` go under its row,
   * each whole (wrapped at spaces, never cut): the facts a person needs, such as a reason or an id.
   */
  overflow?: (row: T) => { head: string; lines: string[] };
}

/** A cell as a person at a terminal reads it. */
function forTerminal(kind: ColumnKind | undefined, v: unknown): string {
  switch (kind) {
    case 'bundle-status':
      return bundleStateWord(text(v));
    case 'packet-status':
      return packetStateWord(text(v));
    case 'doc-status':
      return docStateWord(text(v));
    case 'http':
      return v ? text(v) : 'none';
    case 'yes-no':
      return v === true ? 'yes' : v === false ? 'no' : text(v);
    default:
      return text(v);
  }
}

function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(text).join(', ');
  if (typeof v === 'object') return safeJson(v);
  return stripControl(String(v));
}

/** Tab-separated output must stay one record per line. */
const cell = (v: unknown) => text(v).replace(/[\t\r\n]+/g, ' ');

export function writeJson(o: Out, value: unknown): void {
  o.io.out.write(`${safeJson(value, 2)}\n`);
}

export async function printList<T>(
  o: Out,
  rows: T[],
  columns: Column<T>[],
  id: (row: T) => string,
  json: unknown = rows,
): Promise<void> {
  const { out, err } = o.io;
  if (o.options.json) return writeJson(o, json);
  if (o.options.quiet) return void out.write(rows.map((r) => `${id(r)}\n`).join(''));
  if (!out.isTTY) {
    out.write(rows.map((r) => `${columns.map((c) => cell(c.value(r))).join('\t')}\n`).join(''));
    return;
  }
  if (!rows.length) {
    err.write('No results.\n');
    return;
  }
  const chalk = await o.io.colour('out');
  const now = o.now?.() ?? Date.now();
  const shown = rows.map((r) =>
    columns.map((c) => {
      const v = c.value(r);
      const time =
        c.kind === 'clock' || c.kind === 'dated' || c.kind === 'log'
          ? c.kind
          : c.kind === 'time' || (!c.kind && isIsoTime(v))
            ? 'relative'
            : undefined;
      const t = time && v ? timeIn(time, text(v), now) : forTerminal(c.kind, v);
      return t.replace(/[\t\r\n]+/g, ' ');
    }),
  );
  const fit = columns.map((c, i) => ({
    header: c.header,
    fixed: isIdColumn(c, i, rows, shown, id),
    priority: c.priority ?? 0,
  }));
  const widths = fitWidths(fit, shown, out.columns);
  columns.forEach((c, i) => {
    if (c.kind === 'path' && widths[i]! > 0) for (const r of shown) r[i] = cutLeft(r[i]!, widths[i]!);
  });
  const under = overflowLines(columns, rows, shown, widths, out.columns);
  // Every value went under its row: the column's head would stand over nothing.
  const movedUnder = columns.findIndex((c, i) => c.overflow && widths[i]! > 0 && shown.every((r) => !r[i]));
  // Each cell cut (with an ellipsis) and padded to its column's width in terminal columns, the
  // measure the widths were fitted by; no borders, two spaces between columns.
  const kept = widths
    .map((w, i) => [w, i] as const)
    .filter(([w, i]) => w > 0 && i !== movedUnder)
    .map(([, i]) => i);
  const line = (cell: (i: number) => string) =>
    kept
      .map((i) => cell(i))
      .join('  ')
      .trimEnd();
  const padded = (i: number, s: string, paint: (cut: string) => string) => {
    const cut = fitLine(s, widths[i]!);
    return paint(cut) + ' '.repeat(Math.max(0, widths[i]! - width(cut)));
  };
  const lines = [
    line((i) => padded(i, columns[i].header, chalk.bold)),
    ...rows.flatMap((r, ri) => [
      line((i) =>
        padded(i, shown[ri][i], (cut) => colourStatus(chalk, columns[i].header, text(columns[i].value(r)), cut)),
      ),
      ...(under[ri] ?? []),
    ]),
  ];
  await writePaged(o, `${lines.join('\n')}\n`);
  const hidden = columns.filter((_, i) => widths[i] === 0).map((c) => c.header);
  if (hidden.length)
    err.write(
      `${wrapWords(`(${hidden.join(', ')} left out to fit ${out.columns} columns; --json or a pipe shows all)`, out.columns)}\n`,
    );
}

const FACT_INDENT = '    ';

/** The lines under each row whose overflowing cell gave way to its head (see Column.overflow). */
function overflowLines<T>(
  columns: Column<T>[],
  rows: T[],
  shown: string[][],
  widths: number[],
  total: number,
): string[][] {
  const at = columns.findIndex((c) => c.overflow);
  const w = widths[at] ?? 0;
  if (at < 0 || !w) return [];
  // Where the column starts: its head goes on under itself.
  const start = ' '.repeat(widths.slice(0, at).reduce((n, x) => n + (x > 0 ? x + 2 : 0), 0));
  const oneLine = (s: string) => text(s).replace(/[\t\r\n]+/g, ' ');
  return rows.map((r, ri) => {
    if (width(shown[ri]![at]!) <= w) return [];
    const { head, lines } = columns[at]!.overflow!(r);
    const [first = '', ...rest] = wrapWords(oneLine(head), w).split('\n');
    shown[ri]![at] = first;
    return [...rest.map((l) => start + l), ...lines.map((l) => wrapWords(oneLine(l), total, FACT_INDENT))];
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Ids are never cut: a column marked so, the row's own id, a column named ID (WEBHOOK_ID, EVENT ID),
 * or one that holds only UUIDs (a webhook's, a Bundle's person).
 */
function isIdColumn<T>(c: Column<T>, i: number, rows: T[], shown: string[][], id: (row: T) => string): boolean {
  if (c.kind === 'id' || /(^|[ _])ID$/i.test(c.header)) return true;
  if (rows.every((r) => text(c.value(r)) === id(r))) return true;
  const cells = shown.map((r) => r[i]!).filter(Boolean);
  return cells.length > 0 && cells.every((v) => UUID.test(v));
}

/**
 * Several parts (key/values, tables, lines) printed as one output: on a terminal, taller than it, it
 * goes through the pager once, from its top. Each part paging on its own would open the pager at the
 * first tall part, with the parts above it (the facts) already scrolled away.
 */
export async function printTogether(o: Out, body: (o: Out) => Promise<void>): Promise<void> {
  const { out } = o.io;
  if (!out.isTTY || o.options.json || o.options.quiet) return body(o);
  const [chunks, notes]: string[][] = [[], []];
  const held = {
    write: (t: string) => void chunks.push(t),
    writeBytes: out.writeBytes,
    isTTY: true,
    columns: out.columns,
  };
  // Its notes (a column left out) follow it on stderr, rather than scroll away above it.
  const err = { ...o.io.err, write: (t: string) => void notes.push(t) };
  await body({ io: { ...o.io, out: held, err }, options: o.options, now: () => o.now?.() ?? Date.now() });
  await writePaged(o, chunks.join(''));
  o.io.err.write(notes.join(''));
}

/** A table longer than the terminal goes through the pager (never when piped, never with --no-pager). */
async function writePaged(o: Out, text: string): Promise<void> {
  const { out, env, page } = o.io;
  const lines = text.split('\n').length - 1;
  const pager = o.options.pager !== false && page && out.rows && lines >= out.rows ? pagerCommand(env) : undefined;
  if (pager) await page!(text, pager);
  else out.write(text);
}

/** A single object: key/value pairs (TTY or piped), the object itself with --json, its id with -q. */
export async function printObject(o: Out, obj: object, pairs: [string, unknown][], id?: string): Promise<void> {
  const { out } = o.io;
  if (o.options.json) return writeJson(o, obj);
  if (o.options.quiet) return void (id !== undefined && out.write(`${id}\n`));
  if (!out.isTTY) {
    out.write(pairs.map(([k, v]) => `${k}\t${cell(v)}\n`).join(''));
    return;
  }
  const chalk = await o.io.colour('out');
  const keyWidth = Math.max(...pairs.map(([k]) => k.length));
  const now = o.now?.() ?? Date.now();
  // A long value goes on under itself, broken at spaces: an id or a reason is never cut in two.
  const indent = ' '.repeat(keyWidth + 2);
  const shown = (v: unknown) =>
    wrapWords(isIsoTime(v) ? shortTime(v, now) : text(v), Math.max(indent.length + 20, out.columns), indent).slice(
      indent.length,
    );
  out.write(
    pairs.map(([k, v]) => `${chalk.bold(k.padEnd(keyWidth))}  ${colourStatus(chalk, k, text(v), shown(v))}\n`).join(''),
  );
}

type Chalk = import('chalk').ChalkInstance;
/** Colours a status cell by its code; `shown` is what the terminal prints (the code, or its word). */
function colourStatus(chalk: Chalk, header: string, value: string, shown = value): string {
  if (!/status/i.test(header)) return shown;
  if (['co', 'fi'].includes(value)) return chalk.green(shown);
  if (['ca', 'ex', 'fa', 'de'].includes(value)) return chalk.red(shown);
  if (['dr', 'pe', 'ne'].includes(value)) return chalk.yellow(shown);
  return chalk.cyan(shown);
}

/**
 * A message for the person at the terminal: stderr, never stdout (what it quotes from outside is
 * sanitised), wrapped at spaces to a terminal's width so that no word is cut in two.
 */
export const note = (o: Out, message: string) => {
  const { err } = o.io;
  const text = stripControl(message);
  err.write(`${err.isTTY ? wrapWords(text, err.columns) : text}\n`);
};

/**
 * Lines of at most `columns` terminal columns (as tables measure them), each starting with
 * `indent`, broken at spaces; a word longer than that (a URL, an id) keeps a line of its own, whole.
 */
export function wrapWords(text: string, columns: number, indent = ''): string {
  return text
    .split('\n')
    .map((paragraph) => {
      const lines: string[] = [];
      let line = '';
      for (const word of paragraph.split(/ +/).filter(Boolean)) {
        if (line && width(line) + 1 + width(word) > columns) {
          lines.push(line);
          line = '';
        }
        line = line ? `${line} ${word}` : indent + word;
      }
      lines.push(line);
      return lines.join('\n');
    })
    .join('\n');
}

/** An object of metadata as `key=value` items (shown joined by commas). */
export const keyValueItems = (o: Record<string, unknown> | null | undefined) =>
  Object.entries(o ?? {}).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);

/** A delete has no object to show: `{id, deleted: true}` with --json, the id with -q, else a note on stderr. */
export function printDeleted(o: Out, what: string, id: string): void {
  if (o.options.json) {
    writeJson(o, { id, deleted: true });
    return;
  }
  if (o.options.quiet) {
    o.io.out.write(`${id}\n`);
    return;
  }
  note(o, `Deleted ${what} ${id}.`);
}

/** Key/value pairs for `printObject`: the named fields of `obj`, in order, under their own names. */
export const fieldsOf = <T extends object>(obj: T, keys: (keyof T & string)[]): [string, unknown][] =>
  keys.map((k) => [k, obj[k]]);

/** Columns for `printList` showing fields as they are, headed by their names in capitals. */
export const fieldColumns = <T extends object>(keys: (keyof T & string)[], kind?: ColumnKind): Column<T>[] =>
  keys.map((k) => ({ header: k.toUpperCase(), value: (row: T) => row[k], kind }));
