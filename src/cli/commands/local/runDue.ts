// esign local run-due: apply what is due now (expiry, reminders, work a stopped process left).
import { printObject } from '../../output/print.js';
import { defineVerb } from '../../verb.js';

export const runDue = defineVerb(
  'run-due',
  'Apply what is due now: expiry, reminders, and documents or evidence a stopped process left pending',
  {
    examples: ['esign local run-due', 'esign local run-due --json'],
    async run(f) {
      const e = await f.localEngine();
      const done = e.runDue();
      await e.settle();
      const r = { ...done, ...e.pendingWork() };
      await printObject(f, r, Object.entries(r), String(r.expired + r.reminded));
    },
  },
);
