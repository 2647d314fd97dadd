// Engine timings a spawned process takes from its environment, so tests of several processes
// need not wait out production lengths: ESIGN_WEBHOOK_LEASE_MS (how long a webhook event being
// delivered stays claimed, default 15 s). Not for everyday use.
import type { LocalEngineOptions } from '../local/engine.js';

export function engineTuning(env: NodeJS.ProcessEnv): Pick<LocalEngineOptions, 'webhookLeaseMs'> {
  const lease = Number(env.ESIGN_WEBHOOK_LEASE_MS);
  return Number.isInteger(lease) && lease > 0 ? { webhookLeaseMs: lease } : {};
}
