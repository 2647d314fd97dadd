// What a sandbox process would leave behind when its host dies without a word (SIGKILL, the OOM
// killer): the process ends with it, by Linux's parent-death signal, which util-linux's setpriv sets
// just before node runs, so a process busy in a long parse, or stopped, ends too, not at its CPU
// limit. Its directory, and an office conversion's, which nothing is left to remove, are removed by
// the next host on the machine to start a sandbox process: each directory's name says whose it is.
// A converter run unboxed (no bubblewrap) is not the host's child, nor ended with it (LibreOffice's
// soffice.bin is its launcher's child): that sweep ends every process still naming a dead host's
// directory first.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
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

const OWNED = /^esign-(?:sandbox|office)-(\d+)-(\d+)-/;

/**
 * The start of a working directory's path (for mkdtemp): a sandbox process's, or an office
 * conversion's, with its host's namespace and pid in the name.
 */
export function scratchPrefix(of: 'sandbox' | 'office'): string {
  return join(tmpdir(), `esign-${of}-${pidNamespace() ?? 0}-${process.pid}-`);
}

let swept = false;

/** sweepOrphans(TMPDIR), the first time a process asks. */
export function sweepOrphansOnce(): void {
  if (swept) return;
  swept = true;
  sweepOrphans(tmpdir());
}

/**
 * Removes the sandbox and office directories in `dir` whose host has ended, once the processes
 * naming them have been ended: only those of this pid namespace, and not while a process of that pid
 * lives (a pid used again leaves the directory for a later sweep, never removes a living host's).
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
  const orphaned = entries
    .filter((name) => {
      const owner = OWNED.exec(name);
      return owner && owner[1] === ns && !existsSync(`/proc/${owner[2]}`);
    })
    .map((name) => join(dir, name));
  if (!orphaned.length) return;
  endProcessesNaming(orphaned);
  for (const path of orphaned) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // another user's (TMPDIR shared and sticky): theirs to remove
    }
  }
}

/** The ids of this pid namespace's processes (/proc), none where it cannot be read. */
export function processIds(): string[] {
  try {
    return readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
}

/** SIGKILLs every process whose command line names one of `paths` (a file or directory within it). */
function endProcessesNaming(paths: string[]): void {
  for (const pid of processIds()) {
    let words: string[];
    try {
      words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // ended meanwhile
    }
    if (!words.some((w) => paths.some((p) => names(w, p)))) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // ended meanwhile, or another user's
    }
  }
}

/** Whether an argument names `path` or a file within it (`--user-data-dir=/tmp/x`, `file:///tmp/x/profile`). */
function names(arg: string, path: string): boolean {
  for (let at = arg.indexOf(path); at >= 0; at = arg.indexOf(path, at + 1)) {
    const next = arg[at + path.length];
    if (next === undefined || next === '/') return true;
  }
  return false;
}
