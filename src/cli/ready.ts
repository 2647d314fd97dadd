// How a long-running command (esign serve, esign webhook listen) says it is ready, for a script
// that must not poll a log: with --json, the first line on stdout (stderr for a command whose
// stdout carries data: webhook listen's deliveries) is one JSON object with `"ready": true` and
// where it listens; with --ready-file PATH, the same object is written to PATH (whole, by a
// rename) once it listens, and removed when it stops.
import { rm, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Factory } from './factory.js';
import { CliError, EXIT } from './exitCodes.js';

export interface Ready {
  url: string;
  [more: string]: unknown;
}

/** Announces readiness; returns what to call when the command stops. */
export async function announceReady(
  f: Factory,
  info: Ready,
  readyFile: string | undefined,
  stream: 'out' | 'err' = 'out',
): Promise<() => Promise<void>> {
  const line = JSON.stringify({ ready: true, ...info, pid: process.pid });
  if (readyFile) {
    const tmp = join(dirname(readyFile), `.${process.pid}.ready.tmp`);
    try {
      await writeFile(tmp, `${line}\n`);
      await rename(tmp, readyFile);
    } catch (e) {
      await rm(tmp, { force: true });
      throw new CliError(`--ready-file ${readyFile}: cannot write it (${(e as Error).message}).`, EXIT.USAGE);
    }
  }
  if (f.options.json) f.io[stream].write(`${line}\n`);
  return async () => {
    if (readyFile) await rm(readyFile, { force: true });
  };
}
