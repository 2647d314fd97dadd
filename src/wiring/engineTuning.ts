// Engine timings a spawned process takes from its environment, so tests of several processes
// need not wait out production lengths (ESIGN_WEBHOOK_LEASE_MS, ESIGN_WEBHOOK_BUDGET_MS: see
// src/app/environment.ts), and ESIGN_DEBUG=sql. Not for everyday use.
import { environment } from '../app/environment.js';
import type { LocalEngineOptions } from '../local/engine.js';

type Tuning = Pick<LocalEngineOptions, 'webhookLeaseMs' | 'webhookBudgetMs' | 'explainLists'>;

export function engineTuning(env: NodeJS.ProcessEnv): Tuning {
  const e = environment(env);
  const tuning: Tuning = {};
  if (e.webhookLeaseMs) tuning.webhookLeaseMs = e.webhookLeaseMs;
  if (e.webhookBudgetMs) tuning.webhookBudgetMs = e.webhookBudgetMs;
  // ESIGN_DEBUG=sql: each Bundle list's plan on stderr.
  if (e.debug.words.includes('sql')) tuning.explainLists = true;
  return tuning;
}
