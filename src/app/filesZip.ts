// A Bundle's files as one zip ("download all"): the signed documents, the combined PDF and each
// signer's Certificate of Evidence under the names the files have, in the order the API lists them.
// Each file is opened only when its turn comes, so one link (or one HTTP download) is open at a time,
// and checked against the SHA-256 the API gave: a file that differs, or cannot be read, ends the zip
// with that error instead of leaving a whole-looking archive.
import { createHash } from 'node:crypto';
import { type Readable, Transform } from 'node:stream';
import type { EsignService } from '../service/service.js';
import type { FileObject } from '../service/types.js';
import { loadYazl } from '../lazyImport.js';
import { safeFileName } from './download.js';
import { UseCaseError } from './failure.js';
import { stripControl } from './sanitize.js';

type FileSource = Pick<EsignService, 'getBundleFiles' | 'openFileLink'>;

/** The zip of `slug`'s files, streamed; its entries' names are plain file names (download.ts's rule). */
export async function bundleFilesZip(s: FileSource, slug: string): Promise<Readable> {
  return filesZip(s, await s.getBundleFiles(slug));
}

/** The zip of files already listed (their links still live). */
export async function filesZip(s: Pick<FileSource, 'openFileLink'>, files: FileObject[]): Promise<Readable> {
  const { ZipFile } = await loadYazl();
  const zip = new ZipFile();
  // yazl reports a failed entry on the ZipFile, not its output: the output is ended with it.
  const out = zip.outputStream as Readable;
  const fail = (e: unknown) => out.destroy(e instanceof Error ? e : new Error(String(e)));
  zip.on('error', fail);
  const used = new Set<string>();
  for (const [i, f] of files.entries()) {
    const name = safeFileName(f.name, i, used);
    zip.addReadStreamLazy(name, { compress: false }, (done) =>
      s.openFileLink(f.file_url).then(
        (stream) => {
          stream.on('error', fail);
          done(null, stream.pipe(checked(name, f.sha256)).on('error', fail));
        },
        (e: unknown) => {
          fail(e);
          done(e, undefined as never);
        },
      ),
    );
  }
  zip.end();
  return out;
}

/** Passes the bytes on, and fails at their end when their SHA-256 is not what the API said. */
function checked(name: string, sha256: string | null | undefined): Transform {
  const hash = createHash('sha256');
  return new Transform({
    transform(chunk: Buffer, _enc, next) {
      hash.update(chunk);
      next(null, chunk);
    },
    flush(next) {
      const got = hash.digest('hex');
      if (!sha256 || got === sha256) return next();
      next(
        new UseCaseError(
          `${name}: the file's SHA-256 is ${got}, not ${stripControl(String(sha256))} as the API said.`,
          'mismatch',
        ),
      );
    },
  });
}

/** The zip's own name: the Bundle's id, so two Bundles' downloads never share one. */
export const filesZipName = (slug: string) => `${slug}-files.zip`;
