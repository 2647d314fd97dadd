// Lists an agent pages through with a cursor: the offset of the next item, so that a page cut short
// to fit the answer limit goes on exactly where it stopped. The API pages by page/per_page; an
// offset that is not on a page boundary takes the two pages around it.
import { z } from 'zod';
import type { Page } from '../service/types.js';

export const cursorArg = z
  .string()
  .regex(/^\d{1,7}$/, { error: 'Must be a next_cursor of an earlier answer.' })
  .optional()
  .describe('next_cursor of the previous answer');

export const pageSizeArg = (dflt: number, max: number) =>
  z.int().min(1).max(max).default(dflt).describe(`Items per answer (default ${dflt})`);

export interface Slice<T> {
  items: T[];
  total: number;
}

/** `size` items from `offset` of a paged list (the API's per_page at most 100). */
export async function sliceOf<T>(
  fetch: (q: { page: number; per_page: number }) => Promise<Page<T>>,
  offset: number,
  size: number,
): Promise<Slice<T>> {
  const per_page = Math.min(size, 100);
  const page = Math.floor(offset / per_page) + 1;
  const skip = offset % per_page;
  const first = await fetch({ page, per_page });
  let items = first.items.slice(skip);
  if (items.length < size && page < first.total_pages)
    items = [...items, ...(await fetch({ page: page + 1, per_page })).items];
  return { items: items.slice(0, size), total: first.total };
}

/** An offset from a cursor argument (none: the start). */
export const offsetOf = (cursor: unknown) => (typeof cursor === 'string' ? Number(cursor) : 0);

/** The cursor after `shown` items from `offset`, or null at the end. */
export const nextCursor = (offset: number, shown: number, total: number) =>
  offset + shown < total ? String(offset + shown) : null;
