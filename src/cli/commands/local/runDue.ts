// esign local run-due: apply what is due now (expiry, reminders, work a stopped process left).
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printObject } from '../../output/print.js';
import type { Action } from '../../run.js';

export function register(local: Command, action: Action): void {
  local
    .command('run-due')
    .description('Apply what is due now: expiry, reminders, and documents or evidence a stopped process left pending')
    .action(action(run));
}

export async function run(f: Factory): Promise<void> {
  const e = await f.local();
  const done = e.runDue();
  await e.settle();
  const r = { ...done, ...e.pendingWork() };
  await printObject(f, r, Object.entries(r), String(r.expired + r.reminded));
}
