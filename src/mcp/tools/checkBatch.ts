// check_batch: `esign batch check` for an agent (the use case app/batch/checkRows): every row of a
// CSV built and validated as a real create would be; nothing is sent. Over HTTP nothing of the
// server's disk is read: the CSV comes as text and a spec may not name files (file_path).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { type RowProblem, checkRows } from '../../app/batch/checkRows.js';
import { UseCaseError } from '../../app/failure.js';
import { count, ours, say } from '../prose.js';
import { Refusal } from '../tool.js';
import { BATCH_LIMITS, type BatchArgs, batchShape, loadBatchSource, requireBatchShape } from './batchInput.js';
import { job } from './kit.js';

export const CHECK_LIMITS = { csvChars: BATCH_LIMITS.csvChars, problems: 100 } as const;

export const checkBatch = (fileAccess: boolean) =>
  job({
    name: 'check_batch',
    title: 'Check a batch CSV',
    description:
      'Checks a CSV of Bundles to send (one row each) without sending: every row built and validated as a real create. ' +
      'The shape: exactly one of spec (a Bundle request whose strings hold {{column}}), template or envelope_template. ' +
      'Problems name the row and column.',
    uses: ['getTemplate', 'getEnvelopeTemplate'],
    long: true,
    input: z.strictObject(batchShape(fileAccess)),
    output: z.object({
      rows: z.int(),
      valid: z.int(),
      invalid: z.int(),
      exists: z.int(),
      ok: z.boolean(),
      checked_at_send: z.array(z.string()).describe('rules only the server checks, at send'),
      after_create: z.array(z.string()).describe('what can still fail a Bundle after its create'),
      problems: z.array(z.object({ row: z.int().nullable(), column: z.string().nullable(), message: z.string() })),
      problems_not_shown: z.int(),
    }),
    async run(given, ctx) {
      const a = given as BatchArgs;
      const csvPath = a.csv_path;
      requireBatchShape(a, ctx);
      const load = async () => (await loadBatchSource(a, ctx)).source;
      let dir: string | undefined;
      let path = csvPath;
      if (!path) {
        dir = await mkdtemp(join(tmpdir(), 'esign-mcp-'));
        await writeFile((path = join(dir, 'rows.csv')), a.csv!, { mode: 0o600 });
      }
      const problems: RowProblem[] = [];
      let more = 0;
      try {
        const r = await checkRows(
          async () => ctx.service,
          path,
          load,
          (p) => {
            if (problems.length < CHECK_LIMITS.problems) problems.push(p);
            else more++;
          },
          (rows) => ctx.status(say`${rows} rows checked`),
        );
        return {
          say: r.ok
            ? say`All ${count(r.rows, 'row')} are valid: nothing was sent.`
            : say`${r.invalid} of ${count(r.rows, 'row')} have problems${ours(r.header_fits ? '' : ' (the header does not fit: no row was checked)')}; nothing was sent.`,
          data: {
            rows: r.rows,
            valid: r.valid,
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
      } catch (e) {
        // The CSV's own failures (unreadable, not CSV, a bad header) are the caller's to fix.
        if (e instanceof UseCaseError)
          throw new Refusal(say`The CSV cannot be checked (see the data).`, {
            error: { code: 'invalid', message: e.message },
          });
        throw e;
      } finally {
        if (dir) await rm(dir, { recursive: true, force: true });
      }
    },
  });
