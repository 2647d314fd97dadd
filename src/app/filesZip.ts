// A Bundle's files as one zip ("download all"): the signed documents, the combined PDF and each
// signer's Certificate of Evidence under the names the files have, in the order the API lists them.
// Each file is opened only when its turn comes, so one link (or one HTTP download) is open at a time.
import { ZipFile } from 'yazl';
import type { EsignService } from '../service/service.js';
import { safeFileName } from './download.js';

/** The zip of `slug`'s files, streamed; its entries' names are plain file names (download.ts's rule). */
export async function bundleFilesZip(
  s: Pick<EsignService, 'getBundleFiles' | 'openFileLink'>,
  slug: string,
): Promise<NodeJS.ReadableStream> {
  const files = await s.getBundleFiles(slug);
  const zip = new ZipFile();
  const used = new Set<string>();
  for (const [i, f] of files.entries())
    zip.addReadStreamLazy(safeFileName(f.name, i, used), { compress: false }, (done) =>
      s.openFileLink(f.file_url).then(
        (stream) => done(null, stream),
        (e: unknown) => done(e, undefined as never),
      ),
    );
  zip.end();
  return zip.outputStream;
}

/** The zip's own name: the Bundle's id, so two Bundles' downloads never share one. */
export const filesZipName = (slug: string) => `${slug}-files.zip`;
