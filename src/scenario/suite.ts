// Several scenario files in one run: all are read and checked first; an invalid file fails with its
// problems while the valid ones run. On a backend they share, what their steps need of its sandbox
// is asked once and every file checked before the first request (a file that cannot run there
// fails, the others run; a server that cannot be reached fails every file, each saying why); files
// with a backend each (a fresh local engine, or a sandbox of a remote esign serve) run side by side.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type LoadedScenario, loadScenario, type Problem } from './load.js';
import { type FileResult, notRun, type RunOptions, runScenario, type ScenarioBackend, unrunnable } from './runner.js';

export interface Backends {
  /** True: every file runs on the one backend `open` gives, one after the other. */
  shared: boolean;
  open(): Promise<ScenarioBackend>;
  /** Where the backends are made, for a failure to make one (a server's URL). */
  label?: string;
}

export type Invalid = { file: string; problems: Problem[] };

/** Reads and checks every file; the valid ones, and the problems of the others. */
export async function loadAll(files: string[], env: NodeJS.ProcessEnv) {
  const loaded = await Promise.all(files.map((f) => loadScenario(f, env)));
  return {
    valid: loaded.flatMap((l) => (l.ok ? [l.loaded] : [])),
    invalid: loaded.flatMap((l): Invalid[] => (l.ok ? [] : [{ file: l.file, problems: l.problems }])),
  };
}

/** Steps the shared backend cannot run, by file: refused before any request but that one question. */
async function refusals(scenarios: LoadedScenario[], backend: ScenarioBackend, live: boolean): Promise<Invalid[]> {
  const sandbox = await backend.service.describeSandbox();
  return scenarios.flatMap((s) => {
    const steps = unrunnable(s, sandbox, live);
    return steps.length
      ? [{ file: s.file, problems: steps.map((message) => ({ path: '', message: `${message} (${backend.label})` })) }]
      : [];
  });
}

/** Runs `todo` with at most `jobs` at once, keeping the order of the results. */
async function pool<T, R>(todo: T[], jobs: number, run: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(todo.length);
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const i = next++;
      out[i] = await run(todo[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, todo.length)) }, worker));
  return out;
}

export interface SuiteOptions extends RunOptions {
  /** Files at once when each has a backend of its own. */
  jobs: number;
  /** Called as each file ends. */
  onFile?: (r: FileResult) => void;
  /** Steps may reach real people where the backend has no outbox (--live, or a profile marked live). */
  live: boolean;
  /** Why the shared backend cannot be used, in words that say what to do (a refused key names ESIGN_API_KEY). */
  unreachable: (e: unknown, backend: string) => string;
}

/** Every file's result, in the order given; `fatal` when the shared backend could not be used at all. */
export interface SuiteOutcome {
  results: FileResult[];
  fatal?: unknown;
}

export async function runSuite(
  scenarios: LoadedScenario[],
  backends: Backends,
  o: SuiteOptions,
): Promise<SuiteOutcome> {
  const done = (r: FileResult) => {
    o.onFile?.(r);
    return r;
  };
  if (!backends.shared)
    return {
      results: await pool(scenarios, o.jobs, async (s) => {
        let backend: ScenarioBackend;
        try {
          backend = await backends.open();
        } catch (e) {
          // This file's backend could not be made (a server's sandbox cap reached): it fails, the others run.
          return done(notRun(s.file, s.title, '', [o.unreachable(e, backends.label ?? 'the backend')]));
        }
        try {
          return done(await runScenario(s, backend, o));
        } finally {
          await backend.close();
        }
      }),
    };
  let backend: ScenarioBackend | undefined;
  let refused: Invalid[];
  try {
    backend = await backends.open();
    refused = await refusals(scenarios, backend, o.live);
  } catch (e) {
    await backend?.close().catch(() => undefined);
    const why = o.unreachable(e, backend?.label ?? 'the server');
    return { fatal: e, results: scenarios.map((s) => done(notRun(s.file, s.title, backend?.label ?? '', [why]))) };
  }
  try {
    const results: FileResult[] = [];
    for (const [i, s] of scenarios.entries()) {
      const cannot = refused.find((r) => r.file === s.file);
      if (cannot) {
        results.push(
          done(
            notRun(
              s.file,
              s.title,
              backend.label,
              cannot.problems.map((p) => p.message),
            ),
          ),
        );
        continue;
      }
      const workDir = join(backend.workDir, `file-${i + 1}`);
      await mkdir(workDir, { recursive: true });
      results.push(done(await runScenario(s, { ...backend, workDir }, o)));
    }
    return { results };
  } finally {
    await backend.close();
  }
}
