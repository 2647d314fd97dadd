// What a sandbox process would leave behind when its host dies without a word (SIGKILL, the OOM
// killer): the process ends with it, by Linux's parent-death signal, which util-linux's setpriv sets
// just before node runs, so a process busy in a long parse, or stopped, ends too, not at its CPU
// limit. Its directory, which nothing is left to remove, is removed by the next host on the machine
// to start a sandbox process: each directory's name says whose it is.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemTool } from '../intake/findExecutable.js';

let prefix: string[] | undefined;

/** The command line's start that kills what it runs when this process ends; nothing where setpriv cannot (util-linux before 2.33). */
export function diesWithParent(): string[] {
  if (prefix === undefined) {
    const setpriv = systemTool('ESIGN_SETPRIV', 'setpriv');
    // One exec, no program run: options are read in order, so a setpriv without --pdeathsig refuses
    // it before it gets to --version.
    const works =
      setpriv !== undefined &&
      spawnSync(setpriv, ['--pdeathsig', 'KILL', '--version'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
    prefix = works ? [setpriv, '--pdeathsig', 'KILL', '--'] : [];
  }
  return prefix;
}

/**
 * The process ids a directory's name can be read against: this process's pid namespace (a container's
 * pids are not the machine's), or undefined where there is no /proc to read it in.
 */
function pidNamespace(): string | undefined {
  try {
    return /\d+/.exec(readlinkSync('/proc/self/ns/pid'))?.[0];
  } catch {
    return undefined;
  }
}

const OWNED = /^esign-sandbox-(\d+)-(\d+)-/;

/** The start of a sandbox directory's path (for mkdtemp): its host's namespace and pid in the name. */
export function scratchPrefix(): string {
  return join(tmpdir(), `esign-sandbox-${pidNamespace() ?? 0}-${process.pid}-`);
}

let swept = false;

/** sweepOrphans(TMPDIR), the first time a process asks. */
export function sweepOrphansOnce(): void {
  if (swept) return;
  swept = true;
  sweepOrphans(tmpdir());
}

/**
 * Removes the sandbox directories in `dir` whose host has ended: only those of this pid namespace,
 * and not while a process of that pid lives (a pid used again leaves the directory for a later sweep,
 * never removes a living host's).
 */
export function sweepOrphans(dir: string): void {
  const ns = pidNamespace();
  if (!ns) return;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    const owner = OWNED.exec(name);
    if (!owner || owner[1] !== ns || existsSync(`/proc/${owner[2]}`)) continue;
    try {
      rmSync(join(dir, name), { recursive: true, force: true });
    } catch {
      // another user's (TMPDIR shared and sticky): theirs to remove
    }
  }
}
