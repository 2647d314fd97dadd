// Routes that only the embedded engine has, outside /api/v2/: the files behind expiring links,
// the sandbox for signer activity (no real person signs locally), and the signing page.
import { createReadStream, existsSync } from 'node:fs';
import { extname } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../service/errors.js';
import type { HostedEngine } from '../service/hosting.js';
import { registerPageAssets } from './pages/assets.js';
import { registerPreparationPages } from './pages/preparation/routes.js';
import { registerSigningPage } from './pages/signing/routes.js';

export const SANDBOX_PREFIX = '/sandbox';

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', svg: 'image/svg+xml',
  txt: 'text/plain; charset=utf-8', rtf: 'application/rtf', doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** `authorize` runs as the onRequest hook of the key-holder routes: it throws before any body is read. */
export function registerLocalRoutes(app: FastifyInstance, engine: HostedEngine, authorize: (req: FastifyRequest, reply: FastifyReply) => Promise<void>): void {
  // An expiring file link: anyone holding the URL may download until it expires (like the hosted service's).
  app.get('/files/:token/:name', async (req, reply) => {
    const { token, name } = req.params as { token: string; name: string };
    const path = engine.fileForLink(token);
    if (!path || !existsSync(path)) throw new ApiError(404, 'not_found', 'No such file, or its link has expired.');
    const ext = extname(name).slice(1).toLowerCase();
    return reply
      .type(CONTENT_TYPES[ext] ?? 'application/octet-stream')
      .header('Content-Disposition', `${ext === 'pdf' ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('Cache-Control', 'private, no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .send(createReadStream(path));
  });

  const sandbox = (verb: 'view' | 'sign' | 'decline', run: (id: string, body: unknown) => Promise<unknown>) =>
    app.post(`${SANDBOX_PREFIX}/packets/:id/${verb}/`, { onRequest: authorize }, async (req) => {
      return run((req.params as { id: string }).id, req.body);
    });
  const schemas = () => import('../service/schemas.js');
  sandbox('view', (id) => engine.viewPacket(id));
  sandbox('sign', async (id, body) => {
    return engine.signPacket(id, (await schemas()).signInputOf(body));
  });
  sandbox('decline', async (id, body) => {
    const { PacketDeclineRequest, parseOr400 } = await schemas();
    return engine.declinePacket(id, parseOr400(PacketDeclineRequest, body ?? {}).reason ?? '');
  });
  app.post(`${SANDBOX_PREFIX}/packets/:id/reassign/`, { onRequest: authorize }, async (req, reply) => {
    return reply.code(201).send(await engine.reassignPacket((req.params as { id: string }).id, (req.body ?? {}) as Record<string, unknown>));
  });

  app.post(`${SANDBOX_PREFIX}/webhooks/trigger/`, { onRequest: authorize }, async (req, reply) => {
    const b = (req.body ?? {}) as { event_type?: unknown; bundle?: unknown };
    if (typeof b.event_type !== 'string')
      throw new ApiError(400, 'invalid', 'event_type: This field is required.', [{ field: 'event_type', message: 'This field is required.' }]);
    return reply.code(201).send(await engine.triggerWebhookEvent(b.event_type, typeof b.bundle === 'string' && b.bundle ? b.bundle : undefined));
  });
  app.post(`${SANDBOX_PREFIX}/webhooks/events/:id/resend/`, { onRequest: authorize }, async (req) => {
    return engine.resendWebhookEvent((req.params as { id: string }).id);
  });

  registerPageAssets(app);
  registerSigningPage(app, engine);
  registerPreparationPages(app, engine);
}
