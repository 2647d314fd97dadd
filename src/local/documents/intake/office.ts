// Office documents (Word, Excel, PowerPoint) to PDF with a headless LibreOffice, one isolated run per file.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OFFICE_EXTENSIONS } from '../../../domain/enums.js';
import { boxCommand, findBwrap, installDirOf } from './converterBox.js';
import { findExecutable, isExecutable } from './findExecutable.js';
import { checkOfficeApart } from '../sandbox/apart.js';
import { scratchPrefix } from '../sandbox/orphans.js';

const DEFAULT_OFFICE_TIMEOUT_MS = 120_000;
/** LibreOffice's address space (prlimit --as): it starts near 1 GB of mappings; past this it fails. */
const OFFICE_MEMORY_BYTES = 3 * 1024 * 1024 * 1024;

export function findSoffice(): string | undefined {
  return findExecutable('ESIGN_SOFFICE', ['soffice', 'libreoffice']);
}

/** The last non-empty lines of LibreOffice's output, for error messages (it reports on stdout and stderr). */
const lastWords = (out: string) =>
  out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/javaldx|java may not function/.test(l))
    .slice(-2)
    .join(' ');

export async function convertOfficeToPdf(
  data: Buffer,
  ext: string,
  /** box: false runs the program as it is (tests' stand-ins, which record what they were given). */
  opts: { sofficePath?: string; timeoutMs?: number; memoryBytes?: number; box?: false } = {},
): Promise<Buffer> {
  const type = ext.replace(/^\./, '').toLowerCase();
  if (!(OFFICE_EXTENSIONS as readonly string[]).includes(type))
    throw new Error(`Cannot convert ".${type}" files: the office formats are ${OFFICE_EXTENSIONS.join(', ')}.`);
  if (!data.length) throw new Error('The office document is empty.');
  const timeoutMs = opts.timeoutMs ?? DEFAULT_OFFICE_TIMEOUT_MS;

  // Named for this process: a host killed mid-conversion leaves it, and what runs in it, to the next
  // host's sweep (orphans.ts).
  const dir = await mkdtemp(scratchPrefix('office'));
  try {
    const input = join(dir, `document.${type}`);
    const outDir = join(dir, 'out');
    await writeFile(input, data);
    // LibreOffice reads what it does not recognise as plain text (or as HTML, fetching what it links):
    // a wrong file would "convert". Checked apart: the check inflates the whole package.
    await checkOfficeApart(input, type, opts.box !== false && Boolean(findBwrap()));
    const soffice = opts.sofficePath ?? findSoffice();
    if (!soffice)
      throw new Error(
        'LibreOffice is not installed: no soffice or libreoffice on PATH (set ESIGN_SOFFICE to its path).',
      );
    const args = [
      '--headless',
      '--invisible',
      '--norestore',
      '--nolockcheck',
      '--nodefault',
      '--nologo',
      // Its own profile: LibreOffice runs one instance per profile, so concurrent conversions sharing
      // one would hand their work to each other or fail.
      `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
      '--convert-to',
      'pdf',
      '--outdir',
      outDir,
      input,
    ];
    if (!isExecutable(soffice)) throw new Error(`Cannot run LibreOffice (${soffice}): not an executable file.`);
    const box =
      opts.box === false
        ? { command: soffice, args }
        : await boxCommand([soffice, ...args], {
            scratch: dir,
            memory: { kind: 'address-space', bytes: opts.memoryBytes ?? OFFICE_MEMORY_BYTES },
            extraRo: installDirOf(soffice),
          });
    const output = await run(box.command, box.args, dir, timeoutMs, soffice);
    let pdf: Buffer;
    try {
      pdf = await readFile(join(outDir, 'document.pdf'));
    } catch {
      // soffice exits 0 even when it cannot load the file; it only says so.
      throw new Error(
        `LibreOffice could not convert the .${type} document to PDF${lastWords(output) ? `: ${lastWords(output)}` : '.'}`,
      );
    }
    if (!pdf.subarray(0, 1024).toString('latin1').includes('%PDF-'))
      throw new Error(`LibreOffice produced no valid PDF from the .${type} document.`);
    return pdf;
  } finally {
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Runs soffice in its own process group, so a timeout also kills the soffice.bin its launcher starts. */
function run(cmd: string, args: string[], home: string, timeoutMs: number, soffice: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: home,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Only what it needs: the server's own settings (keys, data directory) are not its business.
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        LANG: process.env.LANG ?? 'C.UTF-8',
        HOME: home,
        TMPDIR: '/tmp',
        SAL_USE_VCLPLUGIN: 'svp',
      },
    });
    let output = '';
    const collect = (b: Buffer) => {
      output = (output + b.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    // Only while the launcher is alive (not yet reaped), so its group id cannot belong to anyone else.
    const killGroup = () => {
      try {
        if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(
        new Error(`Cannot run LibreOffice (${cmd === soffice ? cmd : `${soffice} through ${cmd}`}): ${e.message}`),
      );
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut)
        reject(
          new Error(
            `LibreOffice did not convert the document within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 100) / 10} s`} and was stopped.`,
          ),
        );
      else if (code === 0) resolve(output);
      else
        reject(
          new Error(
            `LibreOffice failed (${signal ?? `exit code ${code}`})${lastWords(output) ? `: ${lastWords(output)}` : '.'}`,
          ),
        );
    });
  });
}
