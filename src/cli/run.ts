// The action wrapper every command uses: a Factory in, errors out as one line and an exit code.
import { readFile } from 'node:fs/promises';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { environment } from '../app/environment.js';
import { UseCaseError } from '../app/failure.js';
import { stripControl } from '../app/sanitize.js';
import { ApiError } from '../domain/errors.js';
import { clockTime, zoneName } from '../app/timeWords.js';
import { CliError, EXIT, EXIT_FOR_FAILURE, type ExitCode, StateConflict, exitCodeForStatus } from './exitCodes.js';
import type { Factory, GlobalOptions, MakeFactory } from './factory.js';
import { type IO, readAll } from './io.js';
import { nextStepFor } from './nextStep.js';

/**
 * Wraps a verb's body for commander: `opts` is the verb's options interface and `args` its
 * positional arguments, in the order the command declares them.
 */
export type Action = <O extends object, A extends unknown[] = []>(
  fn: (f: Factory, opts: O, ...args: A) => Promise<void>,
) => (...args: [...A, O, unknown]) => Promise<void>;

/** Where a program run records its exit code (the process's, or an in-process test's). */
export interface ExitSink {
  code: number;
}

/**
 * Makes the wrapper for one program run: builds the Factory, runs the body, closes the backend,
 * and maps failures to an exit code in `exit`.
 */
export function makeAction(makeFactory: MakeFactory, exit: ExitSink): Action {
  return <O extends object, A extends unknown[]>(fn: (f: Factory, opts: O, ...args: A) => Promise<void>) =>
    async (...args: [...A, O, unknown]) => {
      // commander calls back with the positional arguments, the command's options, then the command.
      const cmd = args[args.length - 1] as CommandUnknownOpts;
      const f = makeFactory(cmd.optsWithGlobals() as GlobalOptions);
      try {
        await fn(f, args[args.length - 2] as O, ...(args.slice(0, -2) as A));
      } catch (e) {
        const step = await nextStepFor(f, e).catch(() => undefined);
        if (step) Object.assign(e as object, { nextStep: step });
        exit.code = reportError(f.io, e, f.options.json === true);
      } finally {
        try {
          await f.close();
        } catch (e) {
          exit.code ||= reportError(f.io, e, false);
        }
      }
    };
}

/**
 * Prints an error on stderr (one line, then one line per extra field error; with --json one JSON
 * object carrying the exit code beside the HTTP status) and returns its exit code.
 */
function reportError(io: IO, e: unknown, json: boolean): ExitCode {
  const write = (line: string) => io.err.write(`${line}\n`);
  // What to do next (nextStep.ts): said after the message, and as `next_step` with --json.
  const step = (e as { nextStep?: string } | undefined)?.nextStep;
  const line = (message: string) =>
    stripControl(step ? `${message}${/[.!?:]$/.test(message) ? '' : '.'} ${step}` : message);
  const stepJson = step ? { next_step: step } : {};
  const api = e instanceof StateConflict ? e.apiError : e;
  if (api instanceof ApiError) {
    const exitCode = e instanceof StateConflict ? EXIT.CONFLICT : exitCodeForStatus(api.status);
    if (json) write(JSON.stringify({ status: api.status, exit_code: exitCode, ...api.toWire(), ...stepJson }));
    else {
      write(`esign: ${line(io.err.isTTY ? timesInZone(api.message) : api.message)}`);
      if (api.errors.length > 1) for (const fe of api.errors) write(`  ${stripControl(`${fe.field}: ${fe.message}`)}`);
    }
    return exitCode;
  }
  if (e instanceof StateConflict) return reportError(io, new CliError(e.message, EXIT.CONFLICT), json);
  if (e instanceof UseCaseError) return reportError(io, new CliError(e.message, EXIT_FOR_FAILURE[e.kind]), json);
  if (e instanceof CliError) {
    write(
      json
        ? JSON.stringify({
            code: e.exitCode === EXIT.USAGE ? 'usage' : 'error',
            message: e.message,
            exit_code: e.exitCode,
          })
        : `esign: ${stripControl(e.message)}`,
    );
    return e.exitCode;
  }
  const err = e as NodeJS.ErrnoException;
  const message = err?.message ?? String(e);
  write(
    json ? JSON.stringify({ code: 'error', message, exit_code: EXIT.FAILURE, ...stepJson }) : `esign: ${line(message)}`,
  );
  if (environment(io.env).debug.stacks) write(err?.stack ?? '');
  return EXIT.FAILURE;
}

const ISO_IN_TEXT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})/g;

/**
 * A backend's message for a person at a terminal: its times (UTC ISO on the wire) in this terminal's
 * zone, named ("the next can go after 10:19:02, Asia/Tokyo (UTC+09:00)"); piped, the message as sent.
 */
function timesInZone(message: string, now = Date.now()): string {
  return message.replace(ISO_IN_TEXT, (iso) => `${clockTime(iso, now)}, ${zoneName(undefined, Date.parse(iso))}`);
}

/** Commander collector for repeatable options. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `KEY=VALUE` items (the value may contain "=", and may be empty). */
export function keyValues(list: string[] | undefined, flag: string): [string, string][] {
  return (list ?? []).map((item) => {
    const i = item.indexOf('=');
    if (i < 1) throw new CliError(`${flag} expects KEY=VALUE, got "${item}".`, EXIT.USAGE);
    return [item.slice(0, i), item.slice(i + 1)];
  });
}

/** Comma-separated values, trimmed, empty items dropped. */
export const commaList = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A whole number written in decimal digits, at least `min` when given. */
export function intArg(value: string, flag: string, min?: number): number {
  if (!/^-?\d+$/.test(value.trim())) throw new CliError(`${flag} expects a whole number, got "${value}".`, EXIT.USAGE);
  const n = Number(value);
  if (min !== undefined && n < min) throw new CliError(`${flag} must be at least ${min}, got ${n}.`, EXIT.USAGE);
  return n;
}

/** Why a file named on the command line cannot be read, as one usage error naming the flag and the path. */
export function unreadable(flag: string, path: string, e: unknown): CliError {
  const code = (e as NodeJS.ErrnoException)?.code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'is a directory, not a file'
        : code === 'EACCES'
          ? 'permission denied'
          : (e as Error).message;
  return new CliError(`${flag ? `${flag} ` : ''}${path}: ${why}`, EXIT.USAGE);
}

/** Reads a file named on the command line; failures are usage errors that say why. */
export async function readInputFile(path: string, flag: string): Promise<Buffer> {
  return readFile(path).catch((e: unknown) => {
    throw unreadable(flag, path, e);
  });
}

/** Reads a JSON object from a file or from stdin (`-`). */
export async function readJsonInput(io: IO, path: string, flag: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = path === '-' ? await readAll(io.stdin) : await readFile(path, 'utf8');
  } catch (e) {
    throw unreadable(flag, path, e);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${flag} ${path}: not valid JSON (${(e as Error).message}).`, EXIT.USAGE);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new CliError(`${flag} ${path}: expected a JSON object.`, EXIT.USAGE);
  return value as Record<string, unknown>;
}

/** Destructive verbs ask on a terminal; elsewhere they need --yes. A "no" changes nothing and says so. */
export async function confirm(f: Factory, question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!f.io.interactive)
    throw new CliError(`${question} Pass --yes to confirm when not running interactively.`, EXIT.USAGE);
  if (!(await f.prompter.confirm(question, false)))
    throw new CliError('Not confirmed: nothing was changed.', EXIT.FAILURE);
}
