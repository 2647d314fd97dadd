// The suite's own temporary directory: every temporary file of a run (the tests', and those of the
// servers, browsers and converters they start) goes in it, and it is removed at the run's end, so a
// killed process leaves nothing in the machine's /tmp. Made by scripts/test.mjs for `npm test`, or by
// test/globalSetup.ts when vitest runs alone.
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const PREFIX = 'esign-suite-';

/** A new directory for the suite's run, as open as /tmp itself: the converters run as nobody inside it. */
export function makeSuiteDir() {
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  chmodSync(dir, 0o1777);
  return dir;
}

/** Whether the temporary directory is already a suite's (vitest started by scripts/test.mjs). */
export const inSuiteDir = () => basename(tmpdir()).startsWith(PREFIX);
