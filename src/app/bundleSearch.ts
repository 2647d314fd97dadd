// The one search rule of every door that finds Bundles for a person's text (the console's search box,
// `esign bundle list --search`): the text trimmed and bounded, the API's search (slug, label,
// custom_key, signer name, email or phone), and, when that finds nothing, the Bundle of a packet id.
import { getBundleOrPacketsBundle } from './bundleRef.js';
import { ApiError } from '../domain/errors.js';
import type { EsignService } from '../service/service.js';
import type { Bundle, BundleListQuery, Page } from '../service/types.js';

/** The longest text searched: what a person pastes, not a document. */
export const MAX_SEARCH = 200;

/** Text as searched: trimmed, at most MAX_SEARCH characters; empty means no search. */
export const searchText = (raw: string | undefined): string => (raw ?? '').trim().slice(0, MAX_SEARCH);

/** What a packet id may look like (ids are short, unspaced): anything else is not looked up as one. */
const PACKET_ID_LIKE = /^[A-Za-z0-9_-]{6,64}$/;

/**
 * The Bundles `q` finds, a page at a time: its search by the rule above. A packet id's Bundle is
 * listed under the query's other filters (it is searched again by its slug), so a status or a date
 * still applies; `packetOf` then names it.
 */
export async function findBundles(
  service: EsignService,
  q: BundleListQuery,
): Promise<{ page: Page<Bundle>; packetOf?: string }> {
  const search = searchText(q.search);
  const { search: _raw, ...rest } = q;
  const query: BundleListQuery = search ? { ...rest, search } : rest;
  const page = await service.listBundles(query);
  if (!search || page.total > 0 || (q.page ?? 1) !== 1 || !PACKET_ID_LIKE.test(search)) return { page };
  const held = await getBundleOrPacketsBundle(service, search).catch((e: unknown) => {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  });
  // Its own slug was searched already: only a packet id leads further.
  if (!held || held.id === search) return { page };
  return { page: await service.listBundles({ ...query, search: held.id }), packetOf: held.id };
}
