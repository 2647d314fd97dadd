// download_files: a Bundle's files. Over stdio with `dir`, saved into that directory on this
// machine (the use case app/download: each checked against the SHA-256 the API gave; a file already
// there with the same bytes is kept, a different one is never replaced); always listed as resource
// links the client reads with resources/read.
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { download, safeFileName } from '../../app/download.js';
import { UseCaseError } from '../../app/failure.js';
import { sha256File } from '../../app/hashFile.js';
import { count, ours, say } from '../prose.js';
import { FileEntry, fileEntries, fileLinks } from './files.js';
import { id, job } from './kit.js';

const Saved = z.object({ index: z.int(), path: z.string(), sha256: z.string(), size: z.int(), kept: z.boolean() });

/** Saves one file at `path`; a file already there with the expected bytes is kept as it is. */
async function saveOne(
  service: () => Promise<import('../../service/service.js').EsignService>,
  url: string,
  path: string,
  sha256: string | undefined,
) {
  try {
    return { ...(await download({ service }, url, path, sha256)), kept: false };
  } catch (e) {
    if (!(e instanceof UseCaseError) || !sha256) throw e;
    const there = await sha256File(path).catch(() => undefined);
    if (there !== sha256) throw e;
    return { path, size: (await readFile(path)).length, sha256, kept: true };
  }
}

export const downloadFiles = (fileAccess: boolean) =>
  job({
    name: 'download_files',
    title: "A Bundle's files",
    description:
      "A Bundle's files (documents, signed PDFs, combined PDF, Certificates of Evidence) with SHA-256, as resource links" +
      (fileAccess
        ? '; with dir, saved there on this machine (never replacing a different file), ready for verify_documents.'
        : ' (read them with resources/read).'),
    uses: ['getBundleFiles'],
    writesFiles: fileAccess,
    input: z.strictObject({
      id,
      ...(fileAccess ? { dir: z.string().min(1).max(4096).optional().describe('Save into this directory') } : {}),
    }),
    output: z.object({ files: z.array(FileEntry), saved: z.array(Saved) }),
    async run(a, ctx) {
      const files = await ctx.service.getBundleFiles(a.id);
      const entries = fileEntries(a.id, files);
      const dir = (a as { dir?: string }).dir;
      if (!dir || !ctx.fileAccess)
        return {
          say: say`Bundle ${a.id} has ${count(files.length, 'file')}: resource links below (resources/read gives the bytes).`,
          data: { files: entries, saved: [] },
          links: fileLinks(a.id, entries),
        };
      const into = resolve(dir);
      await mkdir(into, { recursive: true });
      const used = new Set<string>();
      const saved = [];
      for (const [i, f] of files.entries()) {
        const path = join(into, safeFileName(f.name, i, used));
        saved.push({ index: i, ...(await saveOne(async () => ctx.service, f.file_url, path, f.sha256)) });
      }
      const links: ResourceLink[] = saved.map((s) => ({
        type: 'resource_link',
        uri: pathToFileURL(s.path).href,
        name: `${a.id}-${entries[s.index]!.kind}-${s.index}`,
        mimeType: 'application/pdf',
        size: s.size,
      }));
      const kept = saved.filter((s) => s.kept).length;
      return {
        say: say`Saved ${count(saved.length - kept, 'file')} of Bundle ${a.id}${ours(kept ? say` (${count(kept, 'file')} already there with the same bytes, kept)` : '')}, each matching the SHA-256 the API gave; paths in the data.`,
        data: { files: entries, saved },
        links,
      };
    },
  });
