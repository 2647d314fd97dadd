// Locates helper programs (chromium, soffice) and system tools (bwrap, prlimit, setpriv): an explicit
// environment setting wins, else the PATH.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const isExecutable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * The engine's one reader of the environment: a helper program's path as set by the user (the
 * variables are listed in src/app/environment.ts for esign help environment), trimmed, or undefined.
 */
export const programSetting = (envVar: string): string | undefined => process.env[envVar]?.trim() || undefined;

/**
 * The first of `names` found on PATH: `names` is an order of preference, so an earlier name anywhere
 * on PATH wins over a later one in an earlier directory.
 */
export function onPath(names: readonly string[]): string | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of names) for (const dir of dirs) if (isExecutable(join(dir, name))) return join(dir, name);
  return undefined;
}

/** The value of `envVar` when set (used as given, even if it does not exist: the caller's error names it), else the first of `names` on PATH. */
export function findExecutable(envVar: string, names: readonly string[]): string | undefined {
  return programSetting(envVar) ?? onPath(names);
}

/** A system tool (bwrap, prlimit, setpriv): its ESIGN_ setting, else PATH, else where Debian puts it. */
export function systemTool(envVar: string, name: string): string | undefined {
  const found = findExecutable(envVar, [name]);
  if (found) return found;
  return ['/usr/bin', '/bin', '/usr/sbin', '/sbin'].map((d) => `${d}/${name}`).find((p) => isExecutable(p));
}
