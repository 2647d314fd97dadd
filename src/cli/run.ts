// The action wrapper every command uses: context in, errors out as one line and an exit code.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ApiError } from '../service/errors.js';
import { Context } from './context.js';
import { CliError, EXIT, exitCodeForStatus } from './exitCodes.js';
import { stripControl } from './sanitize.js';

export type Action = <O>(fn: (ctx: Context, opts: O, ...args: any[]) => Promise<void>) => (...args: any[]) => Promise<void>;

/** Wraps a command body: builds the context, runs, closes the engine, maps failures to exit codes. */
export const action: Action = (fn) => async (...args: unknown[]) => {
  const cmd = args[args.length - 1] as Command;
  const opts = args[args.length - 2];
  const ctx = Context.from(cmd);
  try {
    await fn(ctx, opts as never, ...args.slice(0, -2));
  } catch (e) {
    process.exitCode = reportError(e, ctx.options.json === true);
  } finally {
    try {
      await ctx.close();
    } catch (e) {
      process.exitCode ||= reportError(e, false);
    }
  }
};

/** Prints an error on stderr (one line, then one line per extra field error) and returns its exit code. */
export function reportError(e: unknown, json: boolean): number {
  if (e instanceof ApiError) {
    if (json) process.stderr.write(`${JSON.stringify({ status: e.status, ...e.toWire() })}\n`);
    else {
      process.stderr.write(`esign: ${stripControl(e.message)}\n`);
      if (e.errors.length > 1) for (const f of e.errors) process.stderr.write(`  ${stripControl(`${f.field}: ${f.message}`)}\n`);
    }
    return exitCodeForStatus(e.status);
  }
  if (e instanceof CliError) {
    process.stderr.write(json ? `${JSON.stringify({ code: e.exitCode === EXIT.USAGE ? 'usage' : 'error', message: e.message })}\n` : `esign: ${stripControl(e.message)}\n`);
    return e.exitCode;
  }
  const err = e as NodeJS.ErrnoException;
  const message = err?.message ?? String(e);
  process.stderr.write(json ? `${JSON.stringify({ code: 'error', message })}\n` : `esign: ${stripControl(message)}\n`);
  if (process.env.ESIGN_DEBUG) process.stderr.write(`${err?.stack ?? ''}\n`);
  return EXIT.FAILURE;
}

/** Commander collector for repeatable options. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `KEY=VALUE` items (the value may contain "=", and may be empty). */
export function keyValues(list: string[] | undefined, flag: string): [string, string][] {
  return (list ?? []).map((item) => {
    const i = item.indexOf('=');
    if (i < 1) throw new CliError(`${flag} expects KEY=VALUE, got "${item}".`);
    return [item.slice(0, i), item.slice(i + 1)];
  });
}

/** Comma-separated values, trimmed, empty items dropped. */
export const commaList = (value: string) => value.split(',').map((s) => s.trim()).filter(Boolean);

/** A whole number written in decimal digits, at least `min` when given. */
export function intArg(value: string, flag: string, min?: number): number {
  if (!/^-?\d+$/.test(value.trim())) throw new CliError(`${flag} expects a whole number, got "${value}".`);
  const n = Number(value);
  if (min !== undefined && n < min) throw new CliError(`${flag} must be at least ${min}, got ${n}.`);
  return n;
}

/** Reads a JSON object from a file or from stdin (`-`). */
export async function readJsonInput(path: string, flag: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = path === '-' ? await readStdin() : await readFile(path, 'utf8');
  } catch (e) {
    throw new CliError(`${flag} ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${flag} ${path}: not valid JSON (${(e as Error).message}).`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new CliError(`${flag} ${path}: expected a JSON object.`);
  return value as Record<string, unknown>;
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Destructive verbs ask on a terminal; elsewhere they need --yes. */
export async function confirm(question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  const interactive = process.stdin.isTTY && process.stdout.isTTY && !process.env.CI;
  if (!interactive) throw new CliError(`${question} Pass --yes to confirm when not running interactively.`);
  const { confirm: ask } = await import('@inquirer/prompts');
  if (!(await ask({ message: question, default: false }))) throw new CliError('Cancelled.', EXIT.FAILURE);
}
