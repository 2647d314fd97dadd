// esign scenario: test an integration end to end from a file of steps (run, check, init, schema).
import type { Action } from '../../run.js';
import { type Parent, registerVerbs } from '../../verb.js';
import { check, init, run, schema } from './verbs.js';

export function register(program: Parent, action: Action): void {
  const scenario = program
    .command('scenario')
    .description('Scenario files: API calls, signers, clock moves, waits, webhooks and checks, run as one test');
  registerVerbs(scenario, action, [run, check, init, schema]);
}
