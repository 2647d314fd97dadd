// A Bundle named by its slug, or by one of its packets' ids where the backend can tell.
import { ApiError } from '../service/errors.js';
import type { EsignService } from '../service/service.js';
import type { Bundle } from '../service/types.js';

export async function getBundleOrPacketsBundle(service: EsignService, id: string, include?: string): Promise<Bundle> {
  try {
    return await service.getBundle(id, include);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404 && service.bundleOfPacket)) throw e;
    const slug = await service.bundleOfPacket(id).catch(() => {
      throw e;
    });
    return service.getBundle(slug, include);
  }
}
