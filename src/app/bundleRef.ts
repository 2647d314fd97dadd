// A Bundle named by its slug, or by one of its packets' ids where the backend can tell.
import { ApiError } from '../domain/errors.js';
import type { EsignService } from '../service/service.js';
import type { Bundle } from '../service/types.js';

export async function getBundleOrPacketsBundle(service: EsignService, id: string, include?: string): Promise<Bundle> {
  try {
    return await service.getBundle(id, include);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
    const slug = service.bundleOfPacket
      ? await service.bundleOfPacket(id).catch(() => {
          throw e;
        })
      : await bundleHoldingPacket(service, id, e);
    return service.getBundle(slug, include);
  }
}

/** Pages of a signer's Bundles read to find a packet's: a bound, as a search may match many. */
const MAX_PAGES = 10;

/**
 * The Bundle holding packet `id` through the API alone (its Packet names no Bundle): the Bundles
 * its signer's address matches, searched, each one's packets read. `notFound` when none holds it.
 */
async function bundleHoldingPacket(service: EsignService, id: string, notFound: ApiError): Promise<string> {
  const packet = await service.getPacket(id).catch(() => {
    throw notFound;
  });
  const search = packet.email ?? packet.phone ?? packet.name;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const p = await service.listBundles({ search, per_page: 100, page });
    const hit = p.items.find((b) => b.packets.some((x) => x.id === id));
    if (hit) return hit.id;
    if (page >= p.total_pages || !p.items.length) break;
  }
  throw notFound;
}
