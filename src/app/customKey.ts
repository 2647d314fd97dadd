// A Bundle by its custom_key, over any backend: what a door looks up before a create that must not
// happen twice (a batch row, an agent's retried call).
import { findByCustomKey } from '../service/customKey.js';
import type { EsignService } from '../service/service.js';
import type { Bundle } from '../service/types.js';

/** The Bundle whose custom_key is exactly `key` (every page of the search; `beforeCall` paces each call). */
export const findByKey = (
  service: EsignService,
  key: string,
  beforeCall?: () => Promise<void>,
): Promise<Bundle | undefined> => findByCustomKey((q) => service.listBundles(q), key, beforeCall);
