// The live guard, the one rule every door applies before it creates or sends: on a backend whose
// email and SMS reach real people, a Bundle that is not a test goes out only when the caller has
// said so (the profile marked live, or the CLI's --live). Each door words its own refusal.
import type { EsignService } from '../service/service.js';

/**
 * Resolves when sending is allowed; otherwise throws what `refusal` makes. `isTest` is asked last,
 * and only when it matters (it may read the Bundle).
 */
export async function requireLive(
  service: Pick<EsignService, 'capabilities'>,
  live: boolean,
  isTest: boolean | (() => Promise<boolean>),
  refusal: () => Error,
): Promise<void> {
  if (!service.capabilities.sendsForReal || live) return;
  if (typeof isTest === 'function' ? await isTest() : isTest) return;
  throw refusal();
}
