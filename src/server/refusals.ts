// Fastify's (and its multipart plugin's) refusals as the API's Error object: one translation and one
// message per refusal, for the API routes (apiDoor.ts) and the pages (pages/kit.tsx). The API names its
// limits; a page, whose forms set their own, gets the same words without the numbers.
import { ApiError } from '../domain/errors.js';
import { megabytes, type ServerLimits } from './limits.js';

/** What the refusing route allows, for the messages (absent: not named). */
export interface RefusalLimits {
  /** The JSON body's limit, in words. */
  body?: string;
  fileBytes?: number;
  files?: number;
}

export const apiRefusalLimits = (l: ServerLimits): RefusalLimits => ({
  body: `${megabytes(l.jsonBytes)}, or ${megabytes(l.documentJsonBytes)} where documents travel as base64`,
  fileBytes: l.uploadFileBytes,
  files: l.uploadFiles,
});

/** An uploaded file past its size limit (`name`: the file's name, when known). */
export const fileTooLarge = (limits: RefusalLimits, name?: string) =>
  new ApiError(
    413,
    'invalid',
    `${name ? `${name}: an` : 'An'} uploaded file ${limits.fileBytes ? `may be at most ${megabytes(limits.fileBytes)}` : 'is too large'}.`,
  );

/** A media type as a refusal quotes it: its type and subtype only, bounded. */
const mediaType = (contentType: string | undefined) =>
  (contentType ?? '')
    .split(';')[0]!
    .trim()
    .slice(0, 100)
    .replace(/[^\x21-\x7e]/g, '?');

/**
 * The API error behind a refusal of fastify or its plugins, or undefined when it is none (a bug: 500).
 * `contentType`: the request's, which a refusal of its media type names.
 */
export function refusalOf(error: unknown, limits: RefusalLimits, contentType?: string): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const e = (error ?? {}) as { statusCode?: number; code?: string; message?: string; name?: string };
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        415,
        'unsupported_media_type',
        `Unsupported media type "${mediaType(contentType)}" in request.`,
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(
        413,
        'invalid',
        `The request body is too large${limits.body ? ` (at most ${limits.body})` : ''}.`,
      );
    case 'FST_REQ_FILE_TOO_LARGE':
      return fileTooLarge(limits);
    // Too many files, fields or parts is not a size: a 400 that says so, not "too large".
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ApiError(
        400,
        'invalid',
        `The request has more files or fields than allowed${limits.files ? ` (at most ${limits.files} files)` : ''}.`,
      );
    // The multipart plugin answers a part labelled application/json that is not JSON with a 406.
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new ApiError(
        400,
        'parse_error',
        'Malformed multipart body: a part sent as application/json is not valid JSON.',
      );
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_PROTO_VIOLATION':
      return new ApiError(400, 'parse_error', e.message ?? 'Malformed request body.');
  }
  // busboy's own errors: no boundary, a part cut short, a form that ends before its closing boundary.
  if (/boundary|Unexpected end of (form|file)|Malformed part header|Multipart: /i.test(e.message ?? ''))
    return new ApiError(400, 'parse_error', `Malformed multipart body: ${e.message?.replace(/^Multipart: /, '')}.`);
  if (e.name === 'URIError') return new ApiError(400, 'parse_error', 'Malformed URL encoding.');
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500)
    return new ApiError(e.statusCode, e.statusCode === 400 ? 'parse_error' : 'error', e.message ?? 'Bad request.');
  return undefined;
}
