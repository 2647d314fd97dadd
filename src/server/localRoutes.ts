// The doors that only the embedded engine has, outside /api/v2/: the files behind expiring links,
// and the signing and preparation pages (the sandbox's routes come from the operations table, in sandboxDoor.ts).
import { createReadStream, existsSync } from 'node:fs';
import { extname } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import { type HostedEngine, SERVE_PROOF_PATH } from '../service/hosting.js';
import { LINK_BASES, linkRoute } from '../service/linkPaths.js';
import { type Door, errorObject } from './doors.js';
import { PAGE_ASSETS, registerPageAssets } from './pages/assets.js';
import { errorPage } from './pages/kit.js';
import { PREPARATION } from './pages/preparation/common.js';
import { registerPreparationPages } from './pages/preparation/routes.js';
import { SIGNING } from './pages/signing/page.js';
import { registerSigningPage } from './pages/signing/routes.js';

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  txt: 'text/plain; charset=utf-8',
  rtf: 'application/rtf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** The files behind expiring links and the serve proof: fetched by programs, refused with the Error object. */
export function filesDoor(engine: HostedEngine, o: FileLinkOptions): Door {
  return {
    name: 'files',
    paths: [LINK_BASES.file, SERVE_PROOF_PATH],
    answer: errorObject,
    register: (app) => registerFiles(app, engine, o),
  };
}

/** A caller that sent JSON, or asks for JSON and not for a page: a program (the pages' own scripts). */
const wantsJson = (req: FastifyRequest) =>
  /^application\/json/i.test(req.headers['content-type'] ?? '') ||
  (/application\/json/i.test(req.headers.accept ?? '') && !/text\/html/i.test(req.headers.accept ?? ''));

/** The signing and preparation pages: people get an error page of the family, programs the Error object. */
export function pagesDoor(engine: HostedEngine): Door {
  return {
    name: 'pages',
    paths: [LINK_BASES.sign, LINK_BASES.prepare, PAGE_ASSETS],
    answer: (req, reply, e) => {
      if (wantsJson(req)) return errorObject(req, reply, e);
      return errorPage(reply, req.url.startsWith(LINK_BASES.prepare) ? PREPARATION : SIGNING, e);
    },
    register: (app) => {
      registerPageAssets(app);
      registerSigningPage(app, engine);
      registerPreparationPages(app, engine);
    },
  };
}

export interface FileLinkOptions {
  /** Whether the request shows a live API key (its downloads are never turned away). */
  keyed: (req: FastifyRequest) => boolean;
  /** Downloads of file links answered at once to callers without a key; past it, a 503. */
  maxPublicDownloads: number;
}

function registerFiles(app: FastifyInstance, engine: HostedEngine, o: FileLinkOptions): void {
  let publicDownloads = 0;
  // An expiring file link: anyone holding the URL may download until it expires (like the hosted service's).
  app.get(`${linkRoute('file', 'token')}/:name`, async (req, reply) => {
    const { token, name } = req.params as { token: string; name: string };
    const path = engine.fileForLink(token);
    if (!path || !existsSync(path)) throw new ApiError(404, 'not_found', 'No such file, or its link has expired.');
    // Each download holds a file and its buffers: strangers' are bounded, a flood of them is turned away cheaply.
    if (!o.keyed(req)) {
      if (publicDownloads >= o.maxPublicDownloads) {
        reply.header('Retry-After', '10');
        throw new ApiError(503, 'unavailable', 'Too many downloads in progress: try again in a few seconds.');
      }
      publicDownloads++;
      reply.raw.once('close', () => publicDownloads--);
    }
    const ext = extname(name).slice(1).toLowerCase();
    // Small reads: a download its reader stalls holds one chunk here and one in the socket's queue.
    const file = createReadStream(path, { highWaterMark: 16 * 1024 });
    return reply
      .type(CONTENT_TYPES[ext] ?? 'application/octet-stream')
      .header(
        'Content-Disposition',
        `${ext === 'pdf' ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(name)}`,
      )
      .header('Cache-Control', 'private, no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .send(file);
  });

  // serve.json is trusted by other processes only when this answers with the HMAC of their challenge.
  app.get(SERVE_PROOF_PATH, async (req, reply) => {
    const challenge = String((req.query as { challenge?: unknown }).challenge ?? '');
    const proof = /^[0-9a-f]{16,128}$/.test(challenge) ? engine.serveProof?.(challenge) : undefined;
    if (!proof) throw new ApiError(404, 'not_found', 'This server announced no data directory.');
    return reply.type('text/plain').header('Cache-Control', 'no-store').send(proof);
  });
}
