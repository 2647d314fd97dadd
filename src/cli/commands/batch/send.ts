// esign batch send ROWS.csv: one Bundle per row, journaled, resumable, paced by the server (the
// body: send.run.ts).
import { declareVerb } from '../../verb.js';
import { addSourceOptions } from './shared/flags.js';

export const send = declareVerb(
  'send <rows.csv>',
  'Create one Bundle per CSV row; safe to run again: rows already sent are skipped',
  {
    flags: (c) =>
      addSourceOptions(c, true)
        .option(
          '--batch-id <id>',
          'name the batch (default: a hash of the CSV and the source); row keys are <batch-id>-<row>',
        )
        .option('--concurrency <n>', 'creates at a time (default 4)')
        .option('--rate <creates/seconds>', 'on a remote server, the create allowance (default: from GET /rate_limit/)')
        .option('--dry-run', 'validate every row (as batch check) and send nothing')
        .option('--new-batch', 'send this CSV as a new batch, even where an earlier run of it sent rows since edited')
        .option(
          '--results <file>',
          'per-row results: CSV when the name ends in .csv, else JSON Lines; after Ctrl-C every row is listed (interrupted, not_started)',
        )
        .option('--live', 'on a remote server, really send non-test Bundles')
        .option('-y, --yes', 'do not ask for confirmation'),
    examples: [
      'esign batch send rows.csv --spec nda.json --yes',
      'esign batch send offers.csv --template 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c --results results.csv',
      'esign batch send rows.csv --spec nda.json --batch-id nda-2026-11 --yes -q',
    ],
  },
);
