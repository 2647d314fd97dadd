// A request body may name local files: `documents[].file_path` (bundle spec files, scenario
// steps). Each becomes an attached file (multipart `files` on the wire), referred to by its
// `file_index`, read relative to the folder the body came from.
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { AttachedFile } from '../service/types.js';
import { UseCaseError } from './failure.js';

/** Replaces each document's `file_path` by the `file_index` of its file, in place; returns the files. */
export async function attachSpecFiles(
  body: Record<string, unknown>,
  baseDir: string,
  read: (path: string) => Promise<Buffer> = (p) => readFile(p),
  files: AttachedFile[] = [],
): Promise<AttachedFile[]> {
  const documents = Array.isArray(body.documents) ? (body.documents as Record<string, unknown>[]) : [];
  for (const d of documents)
    if (typeof d?.file_path === 'string') {
      const path = resolve(baseDir, d.file_path);
      const data = await read(path).catch((e: NodeJS.ErrnoException) => {
        throw new UseCaseError(`file_path ${d.file_path}: cannot read ${path} (${e.code ?? e.message}).`, 'usage');
      });
      files.push({ filename: basename(path), data });
      d.file_index = files.length - 1;
      delete d.file_path;
    }
  return files;
}
