// find_bundles: Bundles by search and filters, a small page at a time, concise by default.
import { z } from 'zod';
import type { BundleListQuery } from '../../service/types.js';
import { fitItems } from '../answer.js';
import { nextCursor, offsetOf, cursorArg, pageSizeArg, sliceOf } from '../paging.js';
import { count, ours, say } from '../prose.js';
import { ConciseBundle, DetailedBundle, FORMAT, STATE_NAMES, shaped } from '../views.js';
import { serverNow } from './foundSet.js';
import { day, job } from './kit.js';

export const findBundles = job({
  name: 'find_bundles',
  title: 'Find Bundles',
  description:
    "Finds Bundles (documents sent for signature) by words (label, custom_key, signers' names, emails, phones), " +
    'state, tag or dates, newest first. Use it to get a Bundle id; then bundle_story tells one Bundle whole.',
  uses: ['listBundles'],
  input: z.strictObject({
    search: z.string().max(200).optional(),
    states: z
      .array(z.enum(Object.keys(STATE_NAMES) as [string, ...string[]]))
      .max(11)
      .optional(),
    tag: z.string().max(100).optional(),
    created_after: day.optional(),
    created_before: day.optional(),
    response_format: FORMAT,
    page_size: pageSizeArg(10, 50),
    cursor: cursorArg,
  }),
  output: z.object({
    bundles: z.array(z.union([ConciseBundle, DetailedBundle])),
    total: z.int(),
    next_cursor: z.string().nullable(),
    now: z.string(),
  }),
  async run(a, { service }) {
    const query: BundleListQuery = { ordering: '-created' };
    if (a.search) query.search = a.search;
    if (a.states?.length) query.status__in = a.states.map((s) => STATE_NAMES[s]).join(',');
    if (a.tag) query.tag = a.tag;
    if (a.created_after) query.created_after = a.created_after;
    if (a.created_before) query.created_before = a.created_before;
    const offset = offsetOf(a.cursor);
    const { items, total } = await sliceOf((q) => service.listBundles({ ...query, ...q }), offset, a.page_size);
    return fitItems(items, (shown, leftOut) => {
      const next = nextCursor(offset, shown.length, total);
      const cut = leftOut ? say` (${leftOut} more of this page left out to stay under the answer limit)` : '';
      const more = next ? say` Next: the same call with cursor: "${next}".` : '';
      return {
        say: say`${count(total, 'Bundle')} match; ${shown.length} shown from ${offset + 1}${ours(cut)}.${ours(more)}`,
        data: {
          bundles: shown.map((b) => shaped(b, a.response_format)),
          total,
          next_cursor: next,
          now: new Date(serverNow(service)).toISOString(),
        },
      };
    });
  },
});
