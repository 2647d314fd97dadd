// The bodies of esign scenario run, check and init: which backend each file gets (a fresh local
// engine in a temporary directory, unless a remote server is named), the summary, --json and
// --junit, and the exit code (0 all passed, 16 a step failed, 17 a file invalid or not runnable).
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { examplePdf, EXAMPLE, EXAMPLE_FILE, EXAMPLE_PDF, SCHEMA_FILE } from '../../../scenario/example.js';
import { scenarioJsonSchema } from '../../../scenario/format.js';
import { problemLine } from '../../../scenario/load.js';
import { jsonReport, junitXml, summaryLines, totalsLine } from '../../../scenario/report.js';
import { type FileResult, notRun, type ScenarioBackend } from '../../../scenario/runner.js';
import { ApiError } from '../../../domain/errors.js';
import { OPERATION_TABLE } from '../../../service/operationTable.js';
import type { SandboxManager } from '../../../service/sandboxes.js';
import { type Backends, type Invalid, loadAll, runSuite } from '../../../scenario/suite.js';
import { CliError, EXIT, exitCodeForStatus } from '../../../cli/exitCodes.js';
import type { Factory } from '../../../cli/factory.js';
import { note, printList } from '../../../cli/output/print.js';
import { intArg } from '../../../cli/run.js';
import type { OptionsOf } from '../../../cli/verb.js';
import type { init, run } from './verbs.js';

type RunOptions = OptionsOf<typeof run>;

/** A file's sandbox lives this long when the run cannot delete it (killed): the server deletes it then. */
const SANDBOX_TTL_SECONDS = 3600;

/** A fresh engine in a temporary directory of its own, removed after (unless kept). */
function freshLocal(f: Factory, keep: boolean, webhooks: boolean): Backends {
  return {
    shared: false,
    async open(): Promise<ScenarioBackend> {
      const dir = await mkdtemp(join(tmpdir(), 'esign-scenario-'));
      const engine = await f.freshEngine(join(dir, 'data'));
      if (webhooks) await engine.startWebhookDelivery();
      return {
        service: engine,
        label: 'a fresh local engine',
        workDir: join(dir, 'work'),
        async close() {
          await engine.close();
          if (keep) note(f, `Kept: ${join(dir, 'data')} (esign --data-dir ${join(dir, 'data')} bundle list)`);
          else await rm(dir, { recursive: true, force: true });
        },
      };
    },
  };
}

/**
 * A remote server named on purpose (--backend URL, or a profile or ESIGN_BASE_URL): a sandbox of
 * its own per file when it hosts them (esign serve), so files run side by side and see nothing of
 * each other; else, or with --shared, every file on the server and key as given, one after another.
 */
async function remote(
  f: Factory,
  o: RunOptions,
): Promise<(Backends & { live: boolean; close?: () => Promise<void> }) | undefined> {
  const chosen = await f.chosenRemote(o.backend);
  if (!chosen) return undefined;
  const { baseUrl: url, apiKey, live } = chosen;
  if (o.shared) return { ...asGiven(f, url, apiKey), live };
  const { manager } = await f.sandboxes(url, apiKey);
  try {
    await manager.list();
  } catch (e) {
    await manager.close();
    // A server without sandboxes (the hosted service) is used as given; any other failure shows there too.
    if (e instanceof ApiError && e.status === 404)
      note(f, `${url} hosts no sandboxes: the files run on it as given, one after another.`);
    return { ...asGiven(f, url, apiKey), live };
  }
  return { ...perFileSandbox(f, manager, url, o.keep === true), live: false, close: () => manager.close() };
}

/** The server and key as given, every file on it in turn. */
function asGiven(f: Factory, url: string, apiKey: string | undefined): Backends {
  return {
    shared: true,
    async open() {
      const dir = await mkdtemp(join(tmpdir(), 'esign-scenario-'));
      const service = await f.remoteService(url, apiKey);
      return {
        service,
        label: url,
        workDir: dir,
        async close() {
          await service.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  };
}

/** Each file in a sandbox of its own on the server, deleted after the file (kept with --keep). */
function perFileSandbox(f: Factory, manager: SandboxManager, url: string, keep: boolean): Backends {
  return {
    shared: false,
    label: url,
    async open() {
      const made = await manager.create({ name: 'esign scenario run', ttl_seconds: SANDBOX_TTL_SECONDS });
      const dir = await mkdtemp(join(tmpdir(), 'esign-scenario-'));
      const service = await f.remoteService(made.base_url, made.api_key);
      return {
        service,
        label: made.base_url,
        workDir: dir,
        async close() {
          await service.close();
          await rm(dir, { recursive: true, force: true });
          if (keep)
            note(
              f,
              `Kept: sandbox ${made.id} until ${made.expires_at} (ESIGN_BASE_URL=${made.base_url} ESIGN_API_KEY=${made.api_key} esign bundle list)`,
            );
          else await manager.delete(made.id).catch(() => undefined);
        },
      };
    },
  };
}

function printInvalid(f: Factory, invalid: Invalid[], what: string): never {
  if (f.options.json) f.io.out.write(`${JSON.stringify({ passed: false, invalid }, null, 2)}\n`);
  else for (const i of invalid) for (const p of i.problems) f.io.err.write(`${problemLine(i.file, p)}\n`);
  throw new CliError(
    `${invalid.length} scenario file${invalid.length === 1 ? '' : 's'} ${what}: ${invalid.map((i) => i.file).join(', ')}.`,
    EXIT.SCENARIO_INVALID,
  );
}

/** Why a remote server could not be used, saying what to do: a refused key names ESIGN_API_KEY. */
function unreachable(e: unknown, label: string): string {
  if (e instanceof ApiError && (e.status === 401 || e.status === 403))
    return `${label} refused the API key (${e.status} ${e.code}): set ESIGN_API_KEY (or the profile's key) to a key of that server.`;
  if (e instanceof ApiError) return `${label} answered ${e.status} ${e.code}: ${e.message}`;
  return `cannot use ${label}: ${(e as Error)?.message ?? String(e)}`;
}

const exitOf = (e: unknown) =>
  e instanceof CliError ? e.exitCode : e instanceof ApiError ? exitCodeForStatus(e.status) : EXIT.FAILURE;

export async function runFiles(f: Factory, o: RunOptions, files: string[]): Promise<void> {
  // Each file runs on a fresh engine of its own (or the server named): a data directory given on
  // purpose would be ignored, so it is refused instead.
  if (f.options.dataDir !== undefined)
    throw new CliError(
      '--data-dir: scenario run uses a fresh engine per file (--keep keeps each and says where), or --backend URL; it never runs on a data directory.',
      EXIT.USAGE,
    );
  const jobs = o.jobs === undefined ? availableParallelism() : intArg(o.jobs, '--jobs', 1);
  const started = Date.now();
  const { valid, invalid } = await loadAll(files, f.env);
  // An invalid file is a failed file of the report (its problems in the summary); the valid ones run all the same.
  const away = await remote(f, o);
  if (o.shared && !away)
    throw new CliError(
      '--shared: only with a remote server (--backend URL, a profile or ESIGN_BASE_URL); on the embedded engine each file has a fresh engine.',
      EXIT.USAGE,
    );
  const backends =
    away ??
    freshLocal(
      f,
      o.keep === true,
      valid.some((s) => s.scenario.receiver !== undefined),
    );
  const print = (r: FileResult) => {
    if (!f.options.json) f.io.out.write(`${summaryLines(r).join('\n')}\n`);
  };
  invalid.forEach((i) => print(invalidResult(i)));
  const outcome = valid.length
    ? await runSuite(valid, backends, {
        env: f.env,
        jobs,
        live: o.live === true || away?.live === true,
        unreachable,
        onFile: print,
      }).finally(() => away?.close?.())
    : { results: [] };
  if (!valid.length) await away?.close?.();
  const ran = new Map(outcome.results.map((r) => [r.file, r]));
  const results = files.map((file) => ran.get(file) ?? invalidResult(invalid.find((i) => i.file === file)!));
  const ms = Date.now() - started;
  if (o.junit) await writeFile(resolve(o.junit), junitXml(results, ms));
  if (f.options.json) f.io.out.write(`${JSON.stringify(jsonReport(results, ms), null, 2)}\n`);
  else f.io.out.write(`${totalsLine(results, ms)}\n`);
  if (outcome.fatal !== undefined)
    throw new CliError(results[0]?.problems?.[0] ?? 'The server could not be used.', exitOf(outcome.fatal));
  const notRun = results.filter((r) => r.problems);
  if (notRun.length)
    throw new CliError(
      `${notRun.length} scenario file${notRun.length === 1 ? '' : 's'} did not run: ${notRun.map((r) => r.file).join(', ')}${
        notRun.length < results.length ? '; the others ran' : ''
      }.`,
      EXIT.SCENARIO_INVALID,
    );
  const failed = results.filter((r) => r.status === 'failed');
  if (failed.length)
    throw new CliError(
      `${failed.length} of ${results.length} scenario${results.length === 1 ? '' : 's'} failed: ${failed
        .map((r) => {
          const step = r.steps.find((s) => s.status === 'failed');
          return `${r.file}${step?.line ? `:${step.line}` : ''} (${step?.label})`;
        })
        .join(', ')}.`,
      EXIT.SCENARIO_FAILED,
    );
}

/** A file that is invalid as a failed file of the report: its problems, each with its place. */
const invalidResult = (i: Invalid): FileResult =>
  notRun(
    i.file,
    basename(i.file),
    'not run',
    i.problems.map((p) => problemLine(i.file, p)),
  );

export async function checkFiles(f: Factory, _o: unknown, files: string[]): Promise<void> {
  const { valid, invalid } = await loadAll(files, f.env);
  if (f.options.json)
    f.io.out.write(
      `${JSON.stringify(
        [
          ...valid.map((v) => ({ file: v.file, ok: true, steps: v.scenario.steps.length })),
          ...invalid.map((i) => ({ file: i.file, ok: false, problems: i.problems })),
        ],
        null,
        2,
      )}\n`,
    );
  else for (const v of valid) f.io.out.write(`ok ${v.file} (${v.scenario.steps.length} steps)\n`);
  if (invalid.length) printInvalid(f, invalid, 'invalid');
}

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

export async function initExample(f: Factory, o: OptionsOf<typeof init>, into?: string): Promise<void> {
  const dir = into ?? '.';
  const force = o.force === true;
  const files: [string, string | Uint8Array][] = [
    [EXAMPLE_FILE, EXAMPLE],
    [EXAMPLE_PDF, await examplePdf()],
    [SCHEMA_FILE, `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`],
  ];
  if (!force)
    for (const [name] of files)
      if (await exists(join(dir, name)))
        throw new CliError(`${join(dir, name)} exists; pass --force to replace it.`, EXIT.USAGE);
  await mkdir(dir, { recursive: true });
  for (const [name, data] of files) {
    await writeFile(join(dir, name), data);
    f.io.out.write(`${join(dir, name)}\n`);
  }
  note(f, `Run it: esign scenario run ${join(dir, EXAMPLE_FILE)}`);
}

/** Every operation a call step names: the table's name, which the OpenAPI document's operationId repeats. */
export async function listOperations(f: Factory): Promise<void> {
  const rows = OPERATION_TABLE.map((o) => ({
    name: o.name as string,
    method: o.method,
    path: o.path,
    summary: o.summary,
  }));
  await printList(
    f,
    rows,
    [
      { header: 'OPERATION', value: (r) => r.name, priority: 2 },
      { header: 'METHOD', value: (r) => r.method, priority: 1 },
      { header: 'PATH', value: (r) => r.path, priority: 1 },
      { header: 'SUMMARY', value: (r) => r.summary },
    ],
    (r) => r.name,
  );
}

export async function printSchema(f: Factory): Promise<void> {
  f.io.out.write(`${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
}
