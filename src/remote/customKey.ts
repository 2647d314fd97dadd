// A Bundle by its custom_key over API v2, which has no exact filter: `search` matches custom_key as a
// substring (among the label, signers...), so every page of the search is read and compared exactly.
import type { Bundle, BundleListQuery, Page } from '../service/types.js';

/** The Bundle whose custom_key is exactly `key`, from the pages of `list`'s search. */
export async function searchByCustomKey(
  list: (q: BundleListQuery) => Promise<Page<Bundle>>,
  key: string,
): Promise<Bundle | undefined> {
  for (let page = 1; ; page++) {
    const p = await list({ search: key, per_page: 100, page });
    const hit = p.items.find((b) => b.custom_key === key);
    if (hit) return hit;
    if (page >= p.total_pages || !p.items.length) return undefined;
  }
}
