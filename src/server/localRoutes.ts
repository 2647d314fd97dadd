// Routes that only the embedded engine has, outside /api/v2/: the files behind expiring links and
// the signing and preparation pages (the sandbox's routes come from the operations table, in app.ts).
import { createReadStream, existsSync } from 'node:fs';
import { extname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../service/errors.js';
import { type HostedEngine, SERVE_PROOF_PATH } from '../service/hosting.js';
import { linkRoute } from '../service/linkPaths.js';
import { registerPageAssets } from './pages/assets.js';
import { registerPreparationPages } from './pages/preparation/routes.js';
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

export function registerLocalRoutes(app: FastifyInstance, engine: HostedEngine): void {
  // An expiring file link: anyone holding the URL may download until it expires (like the hosted service's).
  app.get(`${linkRoute('file', 'token')}/:name`, async (req, reply) => {
    const { token, name } = req.params as { token: string; name: string };
    const path = engine.fileForLink(token);
    if (!path || !existsSync(path)) throw new ApiError(404, 'not_found', 'No such file, or its link has expired.');
    const ext = extname(name).slice(1).toLowerCase();
    return reply
      .type(CONTENT_TYPES[ext] ?? 'application/octet-stream')
      .header(
        'Content-Disposition',
        `${ext === 'pdf' ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(name)}`,
      )
      .header('Cache-Control', 'private, no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .send(createReadStream(path));
  });

  // serve.json is trusted by other processes only when this answers with the HMAC of their challenge.
  app.get(SERVE_PROOF_PATH, async (req, reply) => {
    const challenge = String((req.query as { challenge?: unknown }).challenge ?? '');
    const proof = /^[0-9a-f]{16,128}$/.test(challenge) ? engine.serveProof?.(challenge) : undefined;
    if (!proof) throw new ApiError(404, 'not_found', 'This server announced no data directory.');
    return reply.type('text/plain').header('Cache-Control', 'no-store').send(proof);
  });

  registerPageAssets(app);
  registerSigningPage(app, engine);
  registerPreparationPages(app, engine);
}
