// The job tools: work an agent asks for that takes more than one operation (a Bundle's whole story,
// waiting for a state, verifying files, checking a batch, saving a Bundle's files). Each is the
// use cases every door shares (src/app: wait, batch, download, verify), not a copy.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { UseCaseError } from '../app/failure.js';
import { parseOr400 } from '../service/schemas.js';
import { WAIT_TARGETS, type WaitTarget } from '../service/states.js';
import type { Source } from '../app/batch/mapping.js';
import { type Annotations, type Json, Refusal, type ToolContext, type ToolDef } from './tool.js';

/** Bounds on what one call may ask for. */
export const JOB_LIMITS = {
  waitIds: 50,
  waitSeconds: 600,
  verifyItems: 50,
  csvChars: 1_000_000,
  problems: 200,
} as const;

const id = z.string().min(1).max(200);
const sha256 = z.string().regex(/^[0-9a-fA-F]{64}$/, { error: 'Must be a SHA-256 hash: 64 hexadecimal characters.' });

const read = (title: string): Annotations => ({
  title,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

function job(
  name: string,
  description: string,
  annotations: Annotations,
  input: z.ZodObject,
  run: (args: Json, ctx: ToolContext) => Promise<unknown>,
  needsFiles = false,
): ToolDef {
  const inputSchema = z.toJSONSchema(input, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Json;
  delete inputSchema.$schema;
  return {
    name,
    description,
    annotations,
    inputSchema,
    input: input as z.ZodType<Json>,
    run,
    ...(needsFiles ? { needsFiles } : {}),
  };
}

/** Paths name this machine's files: only a client on it (stdio) may use them. */
function requireFileAccess(ctx: ToolContext, what: string): void {
  if (!ctx.fileAccess)
    throw new Refusal(
      `${what} names a file on the server's machine, which this connection may not read or write; give a hash or the contents instead.`,
    );
}

const inspect = job(
  'inspect_bundle',
  'Everything about one Bundle in one reply, as `esign bundle inspect --json`: the Bundle, its signers and their ' +
    'states, one timeline (events, email/SMS sent, webhook deliveries), and its files with SHA-256. A packet id works too. ' +
    'Use it to answer "why has X not signed?".',
  read('Inspect a Bundle'),
  z.strictObject({ id: id.describe('A Bundle slug, or the id of one of its packets') }),
  async (a, { service }) => {
    const [{ getBundleOrPacketsBundle }, { inspectBundle }] = await Promise.all([
      import('../app/bundleRef.js'),
      import('../app/inspection.js'),
    ]);
    return inspectBundle(service, await getBundleOrPacketsBundle(service, a.id as string));
  },
);

const wait = job(
  'wait_for_bundles',
  `Waits until every Bundle reaches a state, at most timeout_seconds (≤ ${JOB_LIMITS.waitSeconds}). States: sent, started, ` +
    'complete, docs-ready (complete with the final signed files, ready to download and verify), ended. ' +
    "The reply's outcome is reached, timeout (call again to keep waiting), or unreachable (a Bundle ended where the " +
    'state cannot come, with the reason).',
  read('Wait for Bundles'),
  z.strictObject({
    ids: z.array(id).min(1).max(JOB_LIMITS.waitIds).describe('Bundle slugs'),
    until: z.enum(WAIT_TARGETS).default('complete'),
    timeout_seconds: z.number().int().min(1).max(JOB_LIMITS.waitSeconds).default(60),
  }),
  async (a, { service, signal }) => {
    const [{ waitForBundles }, { explainEnd }] = await Promise.all([
      import('../app/wait/waiter.js'),
      import('../app/wait/why.js'),
    ]);
    const ids = [...new Set(a.ids as string[])];
    const r = await waitForBundles(service, ids, {
      target: a.until as WaitTarget,
      timeoutMs: (a.timeout_seconds as number) * 1000,
      signal,
    });
    const reasons = await Promise.all(
      r.unreachable.map(async (b) => ({ id: b.id, reason: await explainEnd(service, b) })),
    );
    return {
      outcome: r.outcome,
      until: a.until,
      bundles: r.bundles.map((b) => ({
        id: b.id,
        status: b.status,
        doc_status: b.doc_status,
        docs_ready: b.docs_ready,
        completed_at: b.completed_at,
      })),
      pending: r.pending.map((b) => b.id),
      unreachable: reasons,
    };
  },
);

const verify = job(
  'verify_documents',
  'Is this the signed PDF, combined PDF or Certificate of Evidence of a completed Bundle? Give files by path ' +
    '(hashed here; stdio only) or SHA-256 hashes. Each result is match or no_match, with the Bundle it belongs to.',
  read('Verify documents'),
  z
    .strictObject({
      paths: z
        .array(z.string().min(1).max(4096))
        .max(JOB_LIMITS.verifyItems)
        .optional()
        .describe('Files on this machine'),
      hashes: z.array(sha256).max(JOB_LIMITS.verifyItems).optional(),
    })
    .refine((a) => (a.paths?.length ?? 0) + (a.hashes?.length ?? 0) > 0, {
      error: 'Give paths or hashes.',
      path: ['paths'],
    }),
  async (a, ctx) => {
    const inputs = ((a.hashes ?? []) as string[]).map((h) => ({ file: 'hash', hash: h.toLowerCase() }));
    const paths = (a.paths ?? []) as string[];
    if (paths.length) requireFileAccess(ctx, 'paths');
    const { sha256File } = await import('../app/hashFile.js');
    for (const p of paths)
      inputs.push({
        file: p,
        hash: await sha256File(resolve(p)).catch((e: NodeJS.ErrnoException) => {
          throw new Refusal(`${p}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
        }),
      });
    const { verifyHashes } = await import('../app/verify.js');
    const results = await verifyHashes(ctx.service, inputs);
    return { all_match: results.every((r) => r.status === 'match'), results };
  },
);

const check = job(
  'check_batch',
  'Checks a batch CSV as `esign batch check` does: every row built and validated as a real create would be, nothing ' +
    'sent. The shape comes from exactly one of spec (a BundleRequest whose strings may hold {{column}} placeholders), ' +
    'template (a Document Template id) or envelope_template (an Envelope Template id). Problems name the row and column.',
  read('Check a batch CSV'),
  z
    .strictObject({
      csv_path: z.string().min(1).max(4096).optional().describe('The CSV on this machine (stdio only)'),
      csv: z.string().max(JOB_LIMITS.csvChars).optional().describe('The CSV text itself'),
      spec: z.record(z.string(), z.unknown()).optional(),
      template: id.optional(),
      envelope_template: id.optional(),
    })
    .refine((a) => (a.csv_path === undefined) !== (a.csv === undefined), {
      error: 'Give csv_path or csv (one of them).',
      path: ['csv'],
    })
    .refine((a) => [a.spec, a.template, a.envelope_template].filter((x) => x !== undefined).length === 1, {
      error: 'Give exactly one of spec, template, envelope_template.',
      path: ['spec'],
    }),
  async (a, ctx) => {
    const [{ checkRows }, { describeProblem }] = await Promise.all([
      import('../app/batch/checkRows.js'),
      import('../app/batch/mapping.js'),
    ]);
    const load = async (): Promise<Source> => {
      if (a.spec) return { kind: 'spec', spec: a.spec as Json, baseDir: process.cwd() };
      if (a.template) return { kind: 'template', template: await ctx.service.getTemplate(a.template as string) };
      return { kind: 'envelope', template: await ctx.service.getEnvelopeTemplate(a.envelope_template as string) };
    };
    let dir: string | undefined;
    let path = a.csv_path as string | undefined;
    if (path) requireFileAccess(ctx, 'csv_path');
    else {
      dir = await mkdtemp(join(tmpdir(), 'esign-mcp-'));
      await writeFile((path = join(dir, 'rows.csv')), a.csv as string, { mode: 0o600 });
    }
    const problems: string[] = [];
    let more = 0;
    try {
      const r = await checkRows(path, load, (p) => {
        if (problems.length < JOB_LIMITS.problems) problems.push(describeProblem(p.row, p));
        else more++;
      });
      return { ...r, problems, ...(more ? { problems_not_shown: more } : {}) };
    } catch (e) {
      // The CSV's own failures (unreadable, not CSV, a bad header) are the caller's to fix.
      if (e instanceof UseCaseError) throw new Refusal(e.message);
      throw e;
    } finally {
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  },
);

const save = job(
  'download_bundle_files',
  "Saves a Bundle's files (documents, signed PDFs, combined PDF, Certificates of Evidence) into a directory on this " +
    'machine (stdio only), each checked against the SHA-256 the API gave; an existing file is never replaced. ' +
    'Replies with each path and SHA-256 (verify_documents takes them).',
  {
    title: "Save a Bundle's files",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  z.strictObject({ id, dir: z.string().min(1).max(4096).describe('Directory (created if needed)') }),
  async (a, ctx) => {
    requireFileAccess(ctx, 'dir');
    const { download, safeFileName } = await import('../app/download.js');
    const files = await ctx.service.getBundleFiles(a.id as string);
    const dir = resolve(a.dir as string);
    await mkdir(dir, { recursive: true });
    const used = new Set<string>();
    const saved = [];
    const source = { service: async () => ctx.service };
    for (const [i, f] of files.entries()) {
      const r = await download(source, f.file_url, join(dir, safeFileName(f.name, i, used)), f.sha256).catch(
        (e: Error) => {
          throw e instanceof UseCaseError ? new Refusal(e.message) : e;
        },
      );
      saved.push({ kind: f.kind, ...r });
    }
    return { saved };
  },
  true,
);

export const JOB_TOOLS: readonly ToolDef[] = [inspect, wait, verify, check, save];

/** A job tool's arguments checked before it runs: a 400 naming each bad field, as the API's. */
export const parseArgs = (tool: ToolDef, args: unknown) => parseOr400(tool.input, args ?? {}) as Json;
