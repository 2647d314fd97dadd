// Saving files behind expiring links to disk, on either backend: the embedded engine reads its own
// store; a remote server is asked over HTTP. Each file is hashed on the way and checked against
// the SHA-256 the API gave, written to a temporary name and renamed only when complete.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { Factory } from './factory.js';
import { CliError, EXIT } from './exitCodes.js';

async function source(ctx: Factory, url: string): Promise<Readable> {
  return (await ctx.service()).openFileLink(url);
}

/** Saves `url` at `path`; refuses (and removes) a file whose SHA-256 differs from `sha256`. */
export async function download(ctx: Factory, url: string, path: string, sha256?: string): Promise<{ path: string; size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  const tmp = `${path}.${process.pid}.part`;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(await source(ctx, url), tap, createWriteStream(tmp));
    const got = hash.digest('hex');
    if (sha256 && got !== sha256) throw new CliError(`${path}: the downloaded file's SHA-256 is ${got}, not ${sha256} as the API said.`, EXIT.USAGE);
    await rename(tmp, path);
    return { path, size, sha256: got };
  } finally {
    await rm(tmp, { force: true });
  }
}
