// The box the converters (LibreOffice, Chromium) run in: bubblewrap with no network and a filesystem
// of the system's programs (read-only) and one scratch directory, a fresh /tmp and nothing else; as
// the unprivileged user `nobody` when esign runs as root; with a memory limit (prlimit). Without a
// working bubblewrap the program runs unboxed under the same limits, and the caller refuses before
// it runs what would reach out (docs/security.md, "Converters").
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { chown, readdir } from 'node:fs/promises';
import { findExecutable, isExecutable, programSetting } from './findExecutable.js';

/** The user the converters run as when esign is root (Debian's `nobody`). */
export const NOBODY = 65534;

/**
 * Read-only parts of the system a converter needs: programs and libraries, fonts, the data their
 * libraries read, their own settings. Not the rest of /usr/share (where any package's files are),
 * nor /etc, /home, /root, /var, /srv, /opt or esign's data directory.
 */
const SYSTEM_PATHS = [
  '/usr/bin',
  '/usr/lib',
  '/usr/lib32',
  '/usr/lib64',
  '/usr/libx32',
  ...[
    'fonts',
    'fontconfig',
    'libreoffice',
    'liblangtag',
    'libexttextcat',
    'libnumbertext',
    'libthai',
    'icu',
    'zoneinfo',
    'mime',
    'hunspell',
    'hyphen',
    'mythes',
    'chromium',
    'glib-2.0',
    'X11',
  ].map((d) => `/usr/share/${d}`),
  '/etc/fonts',
  '/etc/ld.so.cache',
  '/etc/libreoffice',
  '/etc/chromium',
  '/etc/chromium.d',
  '/var/cache/fontconfig',
];
/** On a merged-/usr system these are links into /usr; elsewhere they are bound as they are. */
const TOP_LINKS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

export type MemoryLimit = { kind: 'address-space' | 'data'; bytes: number };

export interface Box {
  /** What to spawn: the command and its arguments, the program's own arguments last. */
  command: string;
  args: string[];
  /** True when the program runs in bubblewrap (no network, no files beyond the scratch directory). */
  boxed: boolean;
}

const isRoot = () => process.getuid?.() === 0;

/** A system tool (bwrap, prlimit, setpriv): its ESIGN_ setting, else PATH, else where Debian puts it. */
function systemTool(envVar: string, name: string): string | undefined {
  const found = findExecutable(envVar, [name]);
  if (found) return found;
  return ['/usr/bin', '/bin', '/usr/sbin', '/sbin'].map((d) => `${d}/${name}`).find((p) => isExecutable(p));
}

/** Turns a program and its arguments into the boxed command line (see the top of this file). */
function boxArgs(scratch: string, program: string[], extraRo: string[]): string[] {
  const args = ['--unshare-all', '--unshare-user', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  for (const top of TOP_LINKS) {
    if (!existsSync(top)) continue;
    const target = realTarget(top);
    if (target) args.push('--symlink', target, top);
    else args.push('--ro-bind', top, top);
  }
  for (const path of [...SYSTEM_PATHS, ...extraRo]) if (existsSync(path)) args.push('--ro-bind', path, path);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--bind', scratch, scratch, '--chdir', scratch);
  // The box's own root (where bubblewrap made the mount points) is read-only too.
  return [...args, '--remount-ro', '/', '--', ...program];
}

/** A program installed outside /usr (say /opt/libreoffice/program/soffice) is shown to the box too, read-only: its installation. */
export function installDirOf(program: string): string[] {
  let real: string;
  try {
    real = realpathSync(program);
  } catch {
    return []; // not there: starting it fails, and says so
  }
  return real.startsWith('/usr/') ? [] : [dirname(dirname(real))];
}

const realTarget = (path: string) => (lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined);

let probed: { bwrap: string; works: boolean } | undefined;

/** The bubblewrap to use: ESIGN_BWRAP (a path, or "off"), else bwrap on PATH; only if it can start a box here. */
export function findBwrap(): string | undefined {
  if (programSetting('ESIGN_BWRAP') === 'off') return undefined;
  const bwrap = systemTool('ESIGN_BWRAP', 'bwrap');
  if (!bwrap) return undefined;
  if (probed?.bwrap !== bwrap) {
    // A container may forbid the namespaces bubblewrap needs: then it is as good as absent.
    const [cmd, ...args] = asNobody([bwrap, ...boxArgs('/tmp', ['/bin/true'], [])]);
    const tryIt = spawnSync(cmd!, args, { stdio: 'ignore', timeout: 10_000 });
    probed = { bwrap, works: tryIt.status === 0 };
  }
  return probed.works ? bwrap : undefined;
}

/**
 * The command line that runs `program` boxed in `scratch` (made the unprivileged user's first, when
 * esign is root), with `memory` as its limit. `extraRo`: more read-only paths the program needs.
 */
export async function boxCommand(
  program: string[],
  opts: { scratch: string; memory: MemoryLimit; extraRo?: string[] },
): Promise<Box> {
  const bwrap = findBwrap();
  const limit = [`--${opts.memory.kind === 'data' ? 'data' : 'as'}=${opts.memory.bytes}`, '--'];
  const prlimit = systemTool('ESIGN_PRLIMIT', 'prlimit');
  const wrapped = (inner: string[]): Box => {
    // Niced, as the document sandbox is: a converter busy on a hostile file leaves the server the CPU.
    const nice = ['/usr/bin/nice', '/bin/nice'].find((p) => isExecutable(p));
    const line = [...(nice ? [nice, '-n', '10'] : []), ...(prlimit ? [prlimit, ...limit] : []), ...inner];
    return { command: line[0]!, args: line.slice(1), boxed: Boolean(bwrap) };
  };
  if (isRoot()) {
    enterableByAll(opts.scratch);
    await chownTree(opts.scratch);
  }
  return wrapped(asNobody(bwrap ? [bwrap, ...boxArgs(opts.scratch, program, opts.extraRo ?? [])] : program));
}

/** As root, the command run as `nobody` (setpriv, from util-linux); otherwise as it is. */
function asNobody(line: string[]): string[] {
  if (!isRoot()) return line;
  const setpriv = systemTool('ESIGN_SETPRIV', 'setpriv');
  if (!setpriv) throw new Error('Cannot run a converter as an unprivileged user: setpriv is not installed.');
  return [setpriv, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', ...line];
}

/** `nobody` must be able to reach the scratch directory: every directory above it open to all. */
function enterableByAll(scratch: string): void {
  for (let dir = dirname(scratch); dir !== dirname(dir); dir = dirname(dir))
    if (!(statSync(dir).mode & 0o001))
      throw new Error(
        `A converter cannot run as nobody in ${scratch}: ${dir} is closed to other users (set TMPDIR to a directory such as /tmp).`,
      );
}

async function chownTree(dir: string): Promise<void> {
  await chown(dir, NOBODY, NOBODY);
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    await chown(`${entry.parentPath}/${entry.name}`, NOBODY, NOBODY);
}

/**
 * A launcher script for a program that is started by another library (Playwright starts Chromium):
 * it runs the program boxed, its profile directory (--user-data-dir) moved into the scratch directory.
 */
export async function boxLauncher(
  program: string,
  opts: { scratch: string; memory: MemoryLimit; extraRo?: string[] },
): Promise<{ path: string; boxed: boolean }> {
  const { writeFile } = await import('node:fs/promises');
  const box = await boxCommand([program], opts);
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const path = `${opts.scratch}/launch.sh`;
  const script = [
    '#!/bin/sh',
    'for a; do shift; case "$a" in',
    `  --user-data-dir=*) set -- "$@" ${quote(`--user-data-dir=${opts.scratch}/profile`)} ;;`,
    '  *) set -- "$@" "$a" ;;',
    'esac; done',
    `exec ${[box.command, ...box.args].map(quote).join(' ')} "$@"`,
    '',
  ].join('\n');
  await writeFile(path, script, { mode: 0o755 });
  return { path, boxed: box.boxed };
}
