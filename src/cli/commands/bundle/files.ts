// esign bundle files SLUG [--download DIR]: links to a Bundle's files, or the files saved.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import type { FileObject } from '../../../service/types.js';
import type { Factory } from '../../factory.js';
import { note, printList } from '../../output/print.js';
import type { Action } from '../../run.js';

export interface FilesOptions {
  slug: string;
  download?: string;
  clobber?: boolean;
}

export function register(bundle: Command, action: Action): void {
  bundle
    .command('files <slug>')
    .description("Links to the Bundle's files (expiring), or save them with --download")
    .option('--download <dir>', 'save every file into this directory (created if needed)')
    .option('--clobber', 'replace files that already exist in the directory')
    .action(action(async (f, o: Omit<FilesOptions, 'slug'>, slug: string) => run(f, { ...o, slug })));
}

export async function run(f: Factory, o: FilesOptions): Promise<void> {
  const files = await (await f.service()).getBundleFiles(o.slug);
  if (o.download) return downloadAll(f, files, o.download, o.clobber);
  await printList(
    f,
    files,
    [
      { header: 'KIND', value: (x) => x.kind ?? '' },
      { header: 'NAME', value: (x) => x.name ?? '' },
      { header: 'SHA256', value: (x) => x.sha256 ?? '', priority: -1 },
      { header: 'EXPIRES', value: (x) => x.expires, kind: 'time', priority: 1 },
      { header: 'URL', value: (x) => x.file_url },
    ],
    (x) => x.file_url,
  );
}

/** Saves every file, with a counter on a terminal and one line per file (the path) on stdout. */
async function downloadAll(ctx: Factory, files: FileObject[], dir: string, clobber = false): Promise<void> {
  const { download, safeFileName } = await import('../../download.js');
  await mkdir(dir, { recursive: true });
  const used = new Set<string>();
  const saved: { path: string; kind?: string; size: number; sha256: string }[] = [];
  for (const [i, f] of files.entries()) {
    const name = safeFileName(f.name, i, used);
    if (ctx.io.err.isTTY && !ctx.options.json)
      ctx.io.err.write(`\rDownloading ${i + 1}/${files.length}: ${name}\x1b[K`);
    saved.push({ ...(await download(ctx, f.file_url, join(dir, name), f.sha256, { clobber })), kind: f.kind });
  }
  if (ctx.io.err.isTTY && !ctx.options.json) ctx.io.err.write('\r\x1b[K');
  await printList(
    ctx,
    saved,
    [
      { header: 'KIND', value: (s) => s.kind ?? '' },
      { header: 'PATH', value: (s) => s.path },
      { header: 'BYTES', value: (s) => s.size },
      { header: 'SHA256', value: (s) => s.sha256 },
    ],
    (s) => s.path,
  );
  if (!ctx.options.json && !ctx.options.quiet)
    note(ctx, `Saved ${saved.length} file${saved.length === 1 ? '' : 's'} in ${dir}.`);
}
