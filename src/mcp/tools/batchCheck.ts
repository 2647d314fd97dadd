// send_batch's dry run: `esign batch check` for an agent (the use case app/batch/checkRows): every
// row of a CSV built and validated as a real create would be; nothing is sent. Over HTTP nothing of
// the server's disk is read: the CSV comes as text and a spec may not name files (file_path).
import { z } from 'zod';
import { type BatchPlan, type RowProblem, checkRows } from '../../app/batch/checkRows.js';
import { count, ours, say } from '../prose.js';
import type { Answer, ToolContext } from '../tool.js';
import type { BatchSource } from '../../app/batch/send.js';

const CHECK_LIMITS = { problems: 100 } as const;

/** What a dry run answers beside the batch's name and its rows. */
export const CheckMembers = {
  valid: z.int().optional(),
  would_create: z.int().optional(),
  invalid: z.int().optional(),
  ok: z.boolean().optional(),
  checked_at_send: z.array(z.string()).optional(),
  after_create: z.array(z.string()).optional(),
  problems: z
    .array(z.object({ row: z.int().nullable(), column: z.string().nullable(), message: z.string() }))
    .optional(),
  problems_not_shown: z.int().optional(),
};

/** Checks every row of the CSV file `csv` against `from`; problems name the row and column. */
export async function checkBatch(
  ctx: ToolContext,
  csv: string,
  from: BatchSource,
  batch: string,
  plan?: BatchPlan,
): Promise<Answer> {
  const problems: RowProblem[] = [];
  let more = 0;
  const r = await checkRows(
    async () => ctx.service,
    csv,
    async () => from.source,
    (p) => {
      if (problems.length < CHECK_LIMITS.problems) problems.push(p);
      else more++;
    },
    (rows) => ctx.status(say`${rows} rows checked`),
    plan,
  );
  const wouldDo = say`a send would create ${r.would_create}, skip ${r.sent_before} sent before and ${r.exists} already existing`;
  return {
    say: r.ok
      ? say`Batch ${batch}, dry run (nothing sent): no row of ${r.rows} has problems; ${ours(wouldDo)}.`
      : r.header_fits
        ? say`Batch ${batch}, dry run (nothing sent): ${r.invalid} of ${count(r.rows, 'row')} have problems; ${ours(wouldDo)}, and fail the ${r.invalid}.`
        : say`Batch ${batch}, dry run (nothing sent): the header does not fit: no row was checked.`,
    data: {
      batch,
      outcome: 'checked',
      rows: r.rows,
      skipped: r.sent_before,
      valid: r.valid,
      would_create: r.would_create,
      invalid: r.invalid,
      exists: r.exists,
      ok: r.ok,
      checked_at_send: r.checked_at_send,
      after_create: r.after_create,
      problems: problems.map((p) => ({
        row: p.row ?? null,
        column: p.column ?? p.field ?? null,
        message: p.message,
      })),
      problems_not_shown: more,
    },
  };
}
