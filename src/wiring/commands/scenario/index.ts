// esign scenario: test an integration end to end from a file of steps (run, check, init, schema).
import type { Action } from '../../../cli/run.js';
import { type Parent, registerVerbs } from '../../../cli/verb.js';
import { check, init, ops, run, schema } from './verbs.js';

export function register(program: Parent, action: Action): void {
  const scenario = program
    .command('scenario')
    .description('Scenario files: API calls, signers, clock moves, waits, webhooks and checks, run as one test');
  const bodies = () => import('./run.js');
  registerVerbs(scenario, action, [
    run.loads(async () => ({ run: (await bodies()).runFiles })),
    check.loads(async () => ({ run: (await bodies()).checkFiles })),
    init.loads(async () => ({ run: (await bodies()).initExample })),
    schema.loads(async () => ({ run: (await bodies()).printSchema })),
    ops.loads(async () => ({ run: (await bodies()).listOperations })),
  ]);
}
