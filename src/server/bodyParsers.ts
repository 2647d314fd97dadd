// How every door's request bodies are parsed: JSON (an empty body is no body; bad JSON, prototype
// keys and deep nesting are the API's parse_error; a large body parsed off the event loop), form-encoded bodies, multipart (files streamed
// to disk by multipartForm.ts, within the upload limits), and the larger limit of the routes whose
// JSON may carry documents as base64.
import multipart from '@fastify/multipart';
import fp from 'fastify-plugin';
import { parseForm } from './formBody.js';
import { parseJsonBody } from './jsonBody.js';
import { DOCUMENT_JSON_ROUTES, type ServerLimits } from './limits.js';

/**
 * Parsers and limits of the server, not of a scope (fastify-plugin): the doors are sibling scopes
 * registered after it, and a parser set in a scope of its own would hold in that scope only.
 */
export const bodyParsers = fp<{ limits: ServerLimits }>(
  async (app, { limits }) => {
    await app.register(multipart, {
      limits: {
        fileSize: limits.uploadFileBytes,
        files: limits.uploadFiles,
        fieldSize: limits.jsonBytes,
        parts: limits.uploadFiles + 1000,
      },
    });
    app.addHook('onRoute', (route) => {
      if (route.bodyLimit === undefined && DOCUMENT_JSON_ROUTES.some((r) => r.test(route.url ?? '')))
        route.bodyLimit = limits.documentJsonBytes;
    });
    // Clients send Content-Type on PUT .../cancel/ with nothing after it.
    app.removeContentTypeParser(['application/json', 'text/plain']);
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, bytes, done) => {
      parseJsonBody(bytes as Buffer, limits.maxDepth).then(
        (value) => done(null, value),
        (e: Error) => done(e, undefined),
      );
    });
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, text, done) =>
      done(null, parseForm(String(text))),
    );
  },
  { name: 'esign-body-parsers' },
);
