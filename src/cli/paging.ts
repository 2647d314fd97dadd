// List paging flags shared by the list commands: --page, --per-page, --limit, --all.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { MAX_PER_PAGE } from '../domain/enums.js';
import type { Page, PageQuery } from '../service/types.js';
import { CliError, EXIT } from './exitCodes.js';
import { type Out, note } from './output/print.js';
import { intArg } from './run.js';

export interface PageFlags {
  page?: string;
  perPage?: string;
  limit?: string;
  all?: boolean;
}

export function addPageOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) {
  return cmd
    .option('--page <n>', 'page number (from 1)')
    .option('--per-page <n>', 'page size (at most 100)')
    .option('--limit <n>', 'at most this many items, across pages')
    .option('--all', 'every page');
}

/** A page holds at most MAX_PER_PAGE items on every backend: a larger page is refused, never cut short unsaid. */
function perPageArg(value: string): number {
  const n = intArg(value, '--per-page', 1);
  if (n > MAX_PER_PAGE)
    throw new CliError(
      `--per-page is at most ${MAX_PER_PAGE}, got ${n}: for more items give --limit ${n} (fetched page by page) or --all.`,
      EXIT.USAGE,
    );
  return n;
}

/** Fetches the page asked for, or every page (--all), or pages until --limit items. */
export async function fetchPages<T>(out: Out, fetch: (q: PageQuery) => Promise<Page<T>>, o: PageFlags): Promise<T[]> {
  const limit = o.limit !== undefined ? intArg(o.limit, '--limit', 1) : undefined;
  let page = o.page !== undefined ? intArg(o.page, '--page', 1) : 1;
  const perPage =
    o.perPage !== undefined ? perPageArg(o.perPage) : limit !== undefined ? Math.min(limit, MAX_PER_PAGE) : undefined;
  const items: T[] = [];
  for (;;) {
    const p = await fetch({ page, per_page: perPage });
    items.push(...p.items);
    const more = p.page < p.total_pages;
    if (more && (o.all || (limit !== undefined && items.length < limit))) {
      page++;
      continue;
    }
    const shown = limit !== undefined ? Math.min(limit, items.length) : items.length;
    // A list cut short says so, with how many there are and how to see the rest.
    if (shown < p.total && out.io.err.isTTY && !out.options.json && !out.options.quiet)
      note(out, shownOf(shown, p, limit !== undefined));
    break;
  }
  return limit !== undefined ? items.slice(0, limit) : items;
}

const n = (x: number) => x.toLocaleString('en');

/** "Showing 50 of 1,005 (page 1 of 21): --page N for another page, --limit N or --all for more." */
function shownOf(shown: number, p: Page<unknown>, limited: boolean): string {
  const where = limited || p.total_pages <= 1 ? '' : ` (page ${n(p.page)} of ${n(p.total_pages)})`;
  const how = limited ? '--limit N or --all for more' : '--page N for another page, --limit N or --all for more';
  return `Showing ${n(shown)} of ${n(p.total)}${where}: ${how}.`;
}
