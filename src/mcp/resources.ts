// Resources: a Bundle as JSON, and each of its files, by URI. A client lists the newest Bundles
// (a page at a time) and reads a file's bytes without a tool call.
import type { Readable } from 'node:stream';
import { ApiError } from '../domain/errors.js';
import type { EsignService } from '../service/service.js';
import { bundleStateWord } from '../domain/states.js';

const BUNDLE_URI = 'esign://bundles/{slug}';
const FILE_URI = 'esign://bundles/{slug}/files/{index}';

/** The largest file handed out in one read (base64 in a JSON-RPC message). */
const MAX_RESOURCE_BYTES = 25 * 1024 * 1024;
const PER_PAGE = 50;

export const TEMPLATES = [
  {
    uriTemplate: BUNDLE_URI,
    name: 'bundle',
    title: 'A Bundle',
    mimeType: 'application/json',
    description: 'The Bundle as the API returns it (status, signers, documents).',
  },
  {
    uriTemplate: FILE_URI,
    name: 'bundle-file',
    title: 'A file of a Bundle',
    mimeType: 'application/pdf',
    description:
      'The index-th file of the Bundle, in the order of its files (documents, signed PDFs, combined PDF, ' +
      'Certificates of Evidence); download_files and bundle_story list them.',
  },
];

export async function listBundleResources(service: EsignService, cursor: string | undefined) {
  const page = cursor === undefined ? 1 : Number(cursor);
  if (!Number.isInteger(page) || page < 1)
    throw new ApiError(400, 'invalid', `Not a cursor of this list: "${cursor}".`);
  const p = await service.listBundles({ page, per_page: PER_PAGE, ordering: '-created' });
  return {
    // Labels come from outside: they stay in the Bundle's JSON, not in what names a resource.
    resources: p.items.map((b) => ({
      uri: `esign://bundles/${b.id}`,
      name: b.id,
      title: `Bundle ${b.id}`,
      mimeType: 'application/json',
      description: `Bundle ${b.id}: ${bundleStateWord(b.status)}, created ${b.created}`,
    })),
    ...(page < p.total_pages ? { nextCursor: String(page + 1) } : {}),
  };
}

const SLUG = '([A-Za-z0-9_-]{1,100})';
const BUNDLE_RE = new RegExp(`^esign://bundles/${SLUG}/?$`);
const FILE_RE = new RegExp(`^esign://bundles/${SLUG}/files/(\\d{1,4})$`);

async function bytesOf(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      throw new ApiError(
        413,
        'too_large',
        `The file is larger than ${limit} bytes; save it with download_files (dir).`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function readResource(service: EsignService, uri: string) {
  let m = BUNDLE_RE.exec(uri);
  if (m)
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(await service.getBundle(m[1]!)) }] };
  m = FILE_RE.exec(uri);
  if (!m)
    throw new ApiError(
      404,
      'not_found',
      `No such resource: ${uri} (esign://bundles/SLUG or esign://bundles/SLUG/files/N).`,
    );
  const files = await service.getBundleFiles(m[1]!);
  const file = files[Number(m[2])];
  if (!file)
    throw new ApiError(
      404,
      'not_found',
      `Bundle ${m[1]} has ${files.length} file${files.length === 1 ? '' : 's'}; there is no file ${m[2]}.`,
    );
  const data = await bytesOf(await service.openFileLink(file.file_url), MAX_RESOURCE_BYTES);
  return { contents: [{ uri, mimeType: 'application/pdf', blob: data.toString('base64') }] };
}
