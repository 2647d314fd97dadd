// The box the converters (LibreOffice, Chromium) run in: bubblewrap with no network and a filesystem
// of the converter's own installation, the libraries, fonts and the few programs its launch script
// runs (read-only) and one scratch directory, a fresh /tmp and nothing else; as
// the unprivileged user `nobody` when esign runs as root; with a memory limit (prlimit). Without a
// working bubblewrap the program runs unboxed under the same limits, and the caller refuses before
// it runs what would reach out (docs/security.md, "Converters").
import { spawnSync } from 'node:child_process';
import { getPriority } from 'node:os';
import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { chown, readdir } from 'node:fs/promises';
import { CONVERTER_CPU_SECONDS } from '../../../domain/documentLimits.js';
import { isExecutable, programSetting, systemTool } from './findExecutable.js';

/** The user the converters run as when esign is root (Debian's `nobody`). */
export const NOBODY = 65534;

/**
 * Read-only parts of the system a converter needs: shared libraries and locales, fonts, the data
 * their libraries read, their own settings. Not the rest of /usr/lib or /usr/share (where any
 * package's files are), nor /etc, /home, /root, /var, /srv, /opt or esign's data directory.
 */
const SYSTEM_PATHS = [
  ...multiarchLibs(),
  '/usr/lib/locale',
  '/usr/lib32',
  '/usr/lib64',
  '/usr/libx32',
  // The converters' own installations (Debian's packages).
  '/usr/lib/libreoffice',
  '/usr/lib/chromium',
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

/**
 * The programs of /usr/bin the converters run: Debian's soffice and chromium are shell scripts,
 * which run these (found by tracing real conversions, and read from the scripts); no other program.
 */
export const SCRIPT_TOOLS = [
  'sh',
  'dash',
  'true',
  'awk',
  'basename',
  'cut',
  'dirname',
  'expr',
  'find',
  'findmnt',
  'grep',
  'ls',
  'mktemp',
  'rm',
  'sed',
  'tr',
  'uname',
];

/** /usr/lib's directories of shared libraries for an architecture (x86_64-linux-gnu and the like). */
function multiarchLibs(): string[] {
  try {
    return readdirSync('/usr/lib')
      .filter((d) => /^[a-z0-9_]+-linux-gnu[a-z]*$/.test(d))
      .map((d) => `/usr/lib/${d}`);
  } catch {
    return [];
  }
}

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
  // A tool is bound as the file it is (its alternatives link resolved); the program keeps its links,
  // since soffice finds its installation by following the link it was started through.
  const tools = SCRIPT_TOOLS.map((t) => `/usr/bin/${t}`).filter((t) => existsSync(t));
  for (const tool of tools) args.push('--ro-bind', tool, tool);
  args.push(...programLinks(program[0]!, tools));
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

/** The program's path in the box as it is outside: each link on the way kept as a link, the file bound. */
function programLinks(program: string, bound: string[]): string[] {
  const args: string[] = [];
  // Its directory as the box has it (/bin is /usr/bin there, as here).
  let path: string;
  try {
    path = join(realpathSync(dirname(program)), basename(program));
  } catch {
    return []; // not there: starting it fails, and says so
  }
  if (bound.includes(path)) return [];
  for (let hops = 0; hops < 8 && existsSync(path); hops++) {
    const target = realTarget(path);
    if (!target) return [...args, '--ro-bind', path, path];
    args.push('--symlink', target, path);
    path = resolve(dirname(path), target);
  }
  return args;
}

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
 * esign is root), with `memory` as its limit, and CONVERTER_CPU_SECONDS of CPU for each process.
 * `extraRo`: more read-only paths the program needs.
 */
export async function boxCommand(
  program: string[],
  opts: { scratch: string; memory: MemoryLimit; extraRo?: string[] },
): Promise<Box> {
  const bwrap = findBwrap();
  const limit = [
    `--${opts.memory.kind === 'data' ? 'data' : 'as'}=${opts.memory.bytes}`,
    `--cpu=${CONVERTER_CPU_SECONDS}`,
    '--',
  ];
  const prlimit = systemTool('ESIGN_PRLIMIT', 'prlimit');
  const wrapped = (inner: string[]): Box => {
    // Niced, as the document sandbox is: a converter busy on a hostile file leaves the server the CPU.
    // Niceness 10 in all: started from the document sandbox (itself at 10) it adds nothing, or a
    // converter at 19 starves on a busy machine and misses its deadline.
    const nice = ['/usr/bin/nice', '/bin/nice'].find((p) => isExecutable(p));
    const more = Math.max(0, 10 - getPriority());
    const line = [
      ...(nice && more ? [nice, '-n', String(more)] : []),
      ...(prlimit ? [prlimit, ...limit] : []),
      ...inner,
    ];
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
