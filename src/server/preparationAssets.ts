// Static files of the preparation pages, all from this server (CSP 'self'): the pages' own script,
// and PDF.js (pdfjs-dist's legacy build, its worker and font data) straight from node_modules.
import { createReadStream, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PREP_JS } from './preparationClient.js';

export const ASSETS = '/prepare/assets';

let pdfjsRoot: string | undefined;
const pdfjsDir = () => (pdfjsRoot ??= dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')));

/** The files served, by URL name: nothing else under node_modules is reachable. */
const FILES: Record<string, string> = {
  'pdf.mjs': 'legacy/build/pdf.min.mjs',
  'pdf.worker.mjs': 'legacy/build/pdf.worker.min.mjs',
};
const DIRS: Record<string, { dir: string; type: string }> = {
  standard_fonts: { dir: 'standard_fonts', type: 'application/octet-stream' },
  cmaps: { dir: 'cmaps', type: 'application/octet-stream' },
};

const cached = (reply: FastifyReply, type: string) =>
  reply.type(type).header('Cache-Control', 'public, max-age=86400').header('X-Content-Type-Options', 'nosniff');

export function registerPreparationAssets(app: FastifyInstance): void {
  app.get(`${ASSETS}/prep.js`, async (_req, reply) => cached(reply, 'text/javascript; charset=utf-8').send(PREP_JS));

  app.get(`${ASSETS}/:name`, async (req, reply) => {
    const { name } = req.params as { name: string };
    // Own keys only: "constructor" or "__proto__" must not reach Object.prototype.
    const rel = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
    const path = rel && join(pdfjsDir(), rel);
    if (!path || !existsSync(path)) return reply.code(404).type('text/plain').send('Not found');
    return cached(reply, 'text/javascript; charset=utf-8').send(createReadStream(path));
  });

  app.get(`${ASSETS}/:dir/:name`, async (req, reply) => {
    const { dir, name } = req.params as { dir: string; name: string };
    const d = Object.hasOwn(DIRS, dir) ? DIRS[dir] : undefined;
    const path = d && /^[\w.-]+$/.test(name) && !name.startsWith('.') ? join(pdfjsDir(), d.dir, name) : undefined;
    if (!path || !existsSync(path)) return reply.code(404).type('text/plain').send('Not found');
    return cached(reply, d!.type).send(createReadStream(path));
  });
}
