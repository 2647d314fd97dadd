// esign batch: many Bundles from a CSV, one per row (send, check, csv-template, status).
import type { Action } from '../../run.js';
import { type Parent, registerVerbs } from '../../verb.js';
import { check } from './check.js';
import { csvTemplate } from './csvTemplate.js';
import { send } from './send.js';
import { status } from './status.js';

export function register(program: Parent, action: Action): void {
  const batch = program
    .command('batch')
    .description('Send one Bundle per CSV row: resumable, paced by the server, never twice');
  registerVerbs(batch, action, [
    send.loads(() => import('./send.run.js')),
    check.loads(() => import('./check.run.js')),
    csvTemplate.loads(() => import('./csvTemplate.run.js')),
    status.loads(() => import('./status.run.js')),
  ]);
}
