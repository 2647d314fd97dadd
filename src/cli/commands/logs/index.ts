// esign logs: esign serve's requests, live.
import type { Action } from '../../run.js';
import { type Parent, registerVerbs } from '../../verb.js';
import { tail } from './tail.js';

export function register(program: Parent, action: Action): void {
  const logs = program.command('logs').description("esign serve's request log");
  registerVerbs(logs, action, [tail.loads(async () => ({ run: (await import('./follow.js')).followLog }))]);
}
