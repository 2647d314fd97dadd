// Saving files behind expiring links to disk, on either backend: the embedded engine reads its own
// store; a remote server is asked over HTTP. Each file is hashed on the way and checked against
// the SHA-256 the API gave, written to a temporary file beside its target and moved into place only
// when complete. A server chooses the names: they are made safe file names, and an existing file is
// never replaced unless the caller says so (`clobber`).
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { link, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { EsignService } from '../service/service.js';
import { UseCaseError } from './failure.js';
import { stripControl } from './sanitize.js';

const MAX_NAME_BYTES = 200;

/**
 * A server-given name as a plain file name in the chosen directory: no separators, no control
 * characters, no leading dots (so no `.`, `..` or hidden files), not empty, not too long; a name
 * already given to another file of the same download gets -2, -3.
 */
export function safeFileName(raw: unknown, index: number, used: Set<string>): string {
  let base = typeof raw === 'string' ? stripControl(raw).replace(/[\t\n]/g, ' ') : '';
  base = base
    .replace(/[/\\<>:"|?*]/g, '_')
    .trim()
    .replace(/^\.+/, (dots) => '_'.repeat(dots.length));
  while (Buffer.byteLength(base) > MAX_NAME_BYTES) base = base.slice(0, -1);
  if (!base.replace(/[_ ]/g, '')) base = `file-${index + 1}`;
  let name = base;
  for (let n = 2; used.has(name.toLowerCase()); n++) name = base.replace(/(\.[^.]*)?$/, (ext: string) => `-${n}${ext}`);
  used.add(name.toLowerCase());
  return name;
}

/** Where the files come from: the CLI's Factory, or any holder of a service (the MCP server). */
export interface ServiceSource {
  service(): Promise<EsignService>;
}

async function source(ctx: ServiceSource, url: string): Promise<Readable> {
  return (await ctx.service()).openFileLink(url);
}

/** What a save may do to a file already at its path, and how the door says to replace it. */
export interface SaveOptions {
  clobber?: boolean;
  replaceHint?: string;
}

/**
 * Saves `url` at `path`; refuses (and removes) a file whose SHA-256 differs from `sha256`. A file
 * already at `path` is kept unless `clobber`; `replaceHint` is the door's words for how to replace it.
 */
export async function download(
  ctx: ServiceSource,
  url: string,
  path: string,
  sha256?: string,
  opts: SaveOptions = {},
): Promise<{ path: string; size: number; sha256: string }> {
  if (typeof url !== 'string') throw new UseCaseError(`${path}: the server gave no link to download.`, 'failure');
  return saveStream(() => source(ctx, url), path, { ...opts, sha256 });
}

/**
 * Writes what `open` streams at `path`: to a temporary file beside it, moved into place only when
 * complete (and, with `sha256`, only when its SHA-256 is that); an existing file is kept unless `clobber`.
 */
export async function saveStream(
  open: () => Promise<Readable>,
  path: string,
  opts: SaveOptions & { sha256?: string } = {},
): Promise<{ path: string; size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.part`);
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(await open(), tap, createWriteStream(tmp, { flags: 'wx' }));
    const got = hash.digest('hex');
    if (opts.sha256 && got !== opts.sha256)
      throw new UseCaseError(
        `${path}: the downloaded file's SHA-256 is ${got}, not ${stripControl(String(opts.sha256))} as the API said.`,
        'mismatch',
      );
    if (opts.clobber) await rename(tmp, path);
    else {
      // A hard link fails when the name is taken, so even a file that appeared meanwhile is kept.
      await link(tmp, path).catch((e: NodeJS.ErrnoException) => {
        if (e.code === 'EEXIST')
          throw new UseCaseError(`${path} exists; ${opts.replaceHint ?? 'it was kept, not replaced'}.`, 'failure');
        throw e;
      });
    }
    return { path, size, sha256: got };
  } catch (e) {
    if (e instanceof UseCaseError) throw e;
    throw new UseCaseError(`Downloading to ${path} failed: ${(e as Error).message}`, 'failure');
  } finally {
    await rm(tmp, { force: true });
  }
}
