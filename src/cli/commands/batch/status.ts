// esign batch status [BATCH_ID]: the batches in the journal, or one batch's counts and failed rows
// (the body: status.run.ts).
import { declareVerb } from '../../verb.js';

export const status = declareVerb(
  'status [batch-id]',
  "A batch's journal: counts and failed rows (without an id: every batch)",
  {
    examples: ['esign batch status', 'esign batch status nda-2026-11 --json'],
  },
);
