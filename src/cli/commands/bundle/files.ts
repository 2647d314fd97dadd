// esign bundle files SLUG [--download DIR | --zip FILE]: links to a Bundle's files, or the files
// saved, each or as one zip (the console's "download all").
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileObject } from '../../../service/types.js';
import type { Factory } from '../../factory.js';
import { fieldColumns, fieldsOf, note, printList, printObject } from '../../output/print.js';
import { CLOBBER } from '../../flags.js';
import { defineVerb } from '../../verb.js';
import { download, safeFileName, saveStream } from '../../../app/download.js';
import { filesZip } from '../../../app/filesZip.js';
import type { EsignService } from '../../../service/service.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { noServerNote } from '../../../app/runningServer.js';

export const files = defineVerb(
  'files <slug>',
  "Links to the Bundle's files (expiring), or save them with --download or --zip",
  {
    flags: (c) =>
      c
        .option('--download <dir>', 'save every file into this directory (created if needed)')
        .option('--zip <file>', 'save every file in one zip (- for stdout, when it is not a terminal)')
        .option('--clobber', 'replace files that already exist'),
    examples: [
      'esign bundle files 9KwSrpJdyp',
      'esign bundle files 9KwSrpJdyp --download ./signed',
      'esign bundle files 9KwSrpJdyp --zip signed.zip',
    ],
    async run(f, o, slug) {
      if (o.download !== undefined && o.zip !== undefined)
        throw new CliError('Give --download or --zip, not both.', EXIT.USAGE);
      // Checked before anything is fetched: a zip is never drawn on a terminal.
      if (o.zip === '-' && f.io.out.isTTY)
        throw new CliError(
          '--zip -: stdout is a terminal, which a zip would garble: redirect it (> files.zip) or give a file name.',
          EXIT.USAGE,
        );
      const service = await f.service();
      const list = await service.getBundleFiles(slug);
      if (o.download) return downloadAll(f, list, o.download, o.clobber);
      if (o.zip) return saveZip(f, service, list, o.zip, o.clobber);
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

/** The files as one zip, at `path` (written whole, then moved into place) or on stdout (`-`). */
async function saveZip(f: Factory, s: EsignService, list: FileObject[], path: string, clobber = false): Promise<void> {
  const files = `${list.length} file${list.length === 1 ? '' : 's'}`;
  if (path === '-') {
    for await (const chunk of await filesZip(s, list)) await f.io.out.writeBytes(chunk as Buffer);
    if (!f.options.quiet) note(f, `Wrote ${files} as a zip to stdout.`);
    return;
  }
  const saved = await saveStream(async () => filesZip(s, list), path, { clobber, replaceHint: CLOBBER });
  await printObject(
    f,
    { ...saved, files: list.length },
    [...fieldsOf(saved, ['path']), ['files', list.length], ['bytes', saved.size], ...fieldsOf(saved, ['sha256'])],
    saved.path,
  );
  if (!f.options.json && !f.options.quiet) note(f, `Saved ${files} in ${path}.`);
}
