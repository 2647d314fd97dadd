// Engine timings a spawned process takes from its environment, so tests of several processes
// need not wait out production lengths: ESIGN_WEBHOOK_LEASE_MS (how long a webhook event being
// delivered stays claimed, default 15 s) and ESIGN_WEBHOOK_BUDGET_MS (how long a one-shot command
// waits for its webhook first attempts, default 5 s). Not for everyday use.
import type { LocalEngineOptions } from '../local/engine.js';

type Tuning = Pick<LocalEngineOptions, 'webhookLeaseMs' | 'webhookBudgetMs' | 'explainLists'>;

const positive = (value: string | undefined): number | undefined => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

export function engineTuning(env: NodeJS.ProcessEnv): Tuning {
  const tuning: Tuning = {};
  const lease = positive(env.ESIGN_WEBHOOK_LEASE_MS);
  if (lease) tuning.webhookLeaseMs = lease;
  const budget = positive(env.ESIGN_WEBHOOK_BUDGET_MS);
  if (budget) tuning.webhookBudgetMs = budget;
  // ESIGN_DEBUG=sql: each Bundle list's plan on stderr (issue 26).
  if ((env.ESIGN_DEBUG ?? '').split(',').includes('sql')) tuning.explainLists = true;
  return tuning;
}
