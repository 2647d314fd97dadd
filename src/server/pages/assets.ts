// The pages' static files, all from this server (CSP 'self'): the stylesheet and browser scripts
// that scripts/build.mjs bundles into dist/client/ (vitest's global setup builds them too), and
// PDF.js (pdfjs-dist's legacy build, its worker and font data), which the build copies into
// dist/client/pdfjs: pdfjs-dist is not installed with the package.
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** The shared stylesheet and the signing page's script. */
export const PAGE_ASSETS = '/assets';
/** The preparation pages' script beside PDF.js, which it imports by a relative URL. */
export const PREP_ASSETS = '/prepare/assets';

/** Built files by URL: own keys only, so "constructor" or "__proto__" never reach Object.prototype. */
const BUILT: Record<string, { file: string; type: string }> = {
  [`${PAGE_ASSETS}/page.css`]: { file: 'page.css', type: 'text/css; charset=utf-8' },
  [`${PAGE_ASSETS}/signing.js`]: { file: 'signing.js', type: 'text/javascript; charset=utf-8' },
  [`${PREP_ASSETS}/prep.js`]: { file: 'preparation.js', type: 'text/javascript; charset=utf-8' },
};

/** dist/client of this package, found from wherever this module runs (src under vitest, dist when built). */
function clientDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('esign: cannot find the package root for the page assets.');
    dir = up;
  }
  return join(dir, 'dist', 'client');
}

let builtFiles: Map<string, Buffer> | undefined;
/** A file of dist/client, read once: they are small, and a running server keeps serving what it started with. */
export function builtFile(file: string): Buffer {
  builtFiles ??= new Map();
  let data = builtFiles.get(file);
  if (!data) {
    const path = join(clientDir(), file);
    if (!existsSync(path)) throw new Error(`The page asset ${path} is missing: run npm run build.`);
    data = readFileSync(path);
    builtFiles.set(file, data);
  }
  return data;
}

let pdfjsRoot: string | undefined;
const pdfjsDir = () => (pdfjsRoot ??= join(clientDir(), 'pdfjs'));

/** PDF.js files served, by URL name: nothing else of the package is reachable. */
const PDFJS_FILES: Record<string, string> = {
  'pdf.mjs': 'pdf.min.mjs',
  'pdf.worker.mjs': 'pdf.worker.min.mjs',
};
const PDFJS_DIRS: Record<string, { dir: string; type: string }> = {
  standard_fonts: { dir: 'standard_fonts', type: 'application/octet-stream' },
  cmaps: { dir: 'cmaps', type: 'application/octet-stream' },
};

export const cached = (reply: FastifyReply, type: string) =>
  reply.type(type).header('Cache-Control', 'public, max-age=86400').header('X-Content-Type-Options', 'nosniff');

export function registerPageAssets(app: FastifyInstance): void {
  for (const [url, { file, type }] of Object.entries(BUILT))
    app.get(url, async (_req, reply) => cached(reply, type).send(builtFile(file)));
  registerPdfJs(app, PREP_ASSETS);
}

/** PDF.js, its worker and its font data under `prefix` (beside the script that imports `./pdf.mjs`). */
export function registerPdfJs(app: FastifyInstance, prefix: string): void {
  app.get(`${prefix}/:name`, async (req, reply) => {
    const { name } = req.params as { name: string };
    const rel = Object.hasOwn(PDFJS_FILES, name) ? PDFJS_FILES[name] : undefined;
    const path = rel && join(pdfjsDir(), rel);
    if (!path || !existsSync(path)) return reply.code(404).type('text/plain').send('Not found');
    return cached(reply, 'text/javascript; charset=utf-8').send(createReadStream(path));
  });

  app.get(`${prefix}/:dir/:name`, async (req, reply) => {
    const { dir, name } = req.params as { dir: string; name: string };
    const d = Object.hasOwn(PDFJS_DIRS, dir) ? PDFJS_DIRS[dir] : undefined;
    const path = d && /^[\w.-]+$/.test(name) && !name.startsWith('.') ? join(pdfjsDir(), d.dir, name) : undefined;
    if (!path || !existsSync(path)) return reply.code(404).type('text/plain').send('Not found');
    return cached(reply, d!.type).send(createReadStream(path));
  });
}
