// What a spawned process takes from its environment for its engine: ESIGN_DEBUG=sql.
import { environment } from '../app/environment.js';
import type { LocalEngineOptions } from '../local/engine.js';

type Tuning = Pick<LocalEngineOptions, 'explainLists'>;

export function engineTuning(env: NodeJS.ProcessEnv): Tuning {
  const tuning: Tuning = {};
  // ESIGN_DEBUG=sql: each Bundle list's plan on stderr.
  if (environment(env).debug.words.includes('sql')) tuning.explainLists = true;
  return tuning;
}
