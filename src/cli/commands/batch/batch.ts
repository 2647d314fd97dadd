// esign batch: many Bundles from a CSV, one per row (send, check, csv-template, status).
import type { Command } from '@commander-js/extra-typings';
import type { Action } from '../../run.js';
import { register as registerCheck } from './check.js';
import { register as registerCsvTemplate } from './csvTemplate.js';
import { register as registerSend } from './send.js';
import { register as registerStatus } from './status.js';

export function register(program: Command, action: Action): void {
  const batch = program
    .command('batch')
    .description('Send one Bundle per CSV row: resumable, paced by the server, never twice');
  registerSend(batch, action);
  registerCheck(batch, action);
  registerCsvTemplate(batch, action);
  registerStatus(batch, action);
}
