// esign bundle files SLUG [--download DIR]: links to a Bundle's files, or the files saved.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileObject } from '../../../service/types.js';
import type { Factory } from '../../factory.js';
import { fieldColumns, note, printList } from '../../output/print.js';
import { CLOBBER } from '../../flags.js';
import { defineVerb } from '../../verb.js';
import { download, safeFileName } from '../../../app/download.js';
import { noServerNote } from '../../../app/runningServer.js';

export const files = defineVerb(
  'files <slug>',
  "Links to the Bundle's files (expiring), or save them with --download",
  {
    flags: (c) =>
      c
        .option('--download <dir>', 'save every file into this directory (created if needed)')
        .option('--clobber', 'replace files that already exist in the directory'),
    examples: ['esign bundle files 9KwSrpJdyp', 'esign bundle files 9KwSrpJdyp --download ./signed'],
    async run(f, o, slug) {
      const service = await f.service();
      const list = await service.getBundleFiles(slug);
      if (o.download) return downloadAll(f, list, o.download, o.clobber);
      await printList(
        f,
        list,
        [
          ...fieldColumns<FileObject>(['kind', 'name']),
          { header: 'SHA256', value: (x) => x.sha256 ?? '', priority: -1 },
          { header: 'EXPIRES', value: (x) => x.expires, kind: 'time', priority: 1 },
          { header: 'URL', value: (x) => x.file_url },
        ],
        (x) => x.file_url,
      );
      const none = noServerNote(service);
      if (none && list.length) note(f, none);
    },
  },
);

interface Saved {
  path: string;
  kind?: string;
  size: number;
  sha256: string;
}

/** Saves every file, with a counter on a terminal and one line per file (the path) on stdout. */
async function downloadAll(ctx: Factory, list: FileObject[], dir: string, clobber = false): Promise<void> {
  await mkdir(dir, { recursive: true });
  const used = new Set<string>();
  const saved: Saved[] = [];
  const counter = ctx.io.err.isTTY && !ctx.options.json;
  for (const [i, f] of list.entries()) {
    const name = safeFileName(f.name, i, used);
    if (counter) ctx.io.err.write(`\rDownloading ${i + 1}/${list.length}: ${name}\x1b[K`);
    saved.push({
      ...(await download(ctx, f.file_url, join(dir, name), f.sha256, { clobber, replaceHint: CLOBBER })),
      kind: f.kind,
    });
  }
  if (counter) ctx.io.err.write('\r\x1b[K');
  await printList(
    ctx,
    saved,
    [
      ...fieldColumns<Saved>(['kind', 'path']),
      { header: 'BYTES', value: (s) => s.size },
      ...fieldColumns<Saved>(['sha256']),
    ],
    (s) => s.path,
  );
  if (!ctx.options.json && !ctx.options.quiet)
    note(ctx, `Saved ${saved.length} file${saved.length === 1 ? '' : 's'} in ${dir}.`);
}
