// A Bundle by its custom_key, on any backend: the one lookup a create makes before it is sent again
// (the remote adapter's retry policy, and batch send before each row).
import type { Bundle, BundleListQuery, Page } from './types.js';

/**
 * The Bundle whose custom_key is exactly `key`: search is a substring match, so every page is read.
 * `beforeCall` runs before each page is asked for (a caller that paces its calls).
 */
export async function findByCustomKey(
  list: (q: BundleListQuery) => Promise<Page<Bundle>>,
  key: string,
  beforeCall?: () => Promise<void>,
): Promise<Bundle | undefined> {
  for (let page = 1; ; page++) {
    await beforeCall?.();
    const p = await list({ search: key, per_page: 100, page });
    const hit = p.items.find((b) => b.custom_key === key);
    if (hit) return hit;
    if (page >= p.total_pages || !p.items.length) return undefined;
  }
}
