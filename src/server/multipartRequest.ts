// An operation's request as multipart (the table's `multipart` rows: a Bundle create): `files`
// parts plus the request as JSON text in a `bundle_request` part, received within the upload limits
// (multipartForm.ts); the caller cleans up once the operation is done.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import type { AttachedFile } from '../service/types.js';
import { parseJson } from './jsonBody.js';
import type { ServerLimits } from './limits.js';
import { receiveForm } from './multipartForm.js';
import { apiRefusalLimits } from './refusals.js';

export interface MultipartRequest {
  body: unknown;
  files: AttachedFile[];
  cleanup: () => Promise<void>;
}

export async function receiveMultipartRequest(req: FastifyRequest, limits: ServerLimits): Promise<MultipartRequest> {
  const form = await receiveForm(
    req,
    {
      files: limits.uploadFiles,
      fileBytes: limits.uploadFileBytes,
      totalFileBytes: limits.uploadRequestBytes,
      fields: 100,
      fieldBytes: limits.jsonBytes,
      totalFieldBytes: limits.jsonBytes + 100 * 1024,
    },
    { refusal: apiRefusalLimits(limits) },
  );
  try {
    const spec = form.fields.find(([name]) => name === 'bundle_request');
    if (spec === undefined)
      throw new ApiError(400, 'invalid', 'bundle_request: This field is required.', [
        { field: 'bundle_request', message: 'This field is required.' },
      ]);
    const body = parseJson(spec[1], limits.maxDepth, 'bundle_request is not valid JSON');
    // Only the files a document refers to are read into memory; the others keep their place (and
    // name) empty: 600 MB of parts no document named were held whole for the create.
    const documents = (body as { documents?: unknown } | null)?.documents;
    const referred = new Set(
      (Array.isArray(documents) ? documents : []).map((d) => (d as { file_index?: unknown } | null)?.file_index),
    );
    const files = await Promise.all(
      form.files.map(async (f, i) => ({
        filename: f.filename,
        contentType: f.contentType,
        data: referred.has(i) ? await f.read() : Buffer.alloc(0),
      })),
    );
    return { body, files, cleanup: form.cleanup };
  } catch (e) {
    await form.cleanup();
    throw e;
  }
}
