// Bundles the CLI (and the engine, for library use and benchmarks) with esbuild, with lazy chunks
// for what commands import on demand; and the browser side of esign serve's pages into
// dist/client (`--client` builds only that: vitest's global setup does, for the page tests).
// CommonJS packages are not bundled (see commonJsExternal); type checking is `npm run typecheck` (tsc).
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

/** An ES module file: .mjs, or .js under a package.json saying "type": "module". */
function isEsmFile(path) {
  if (path.endsWith('.mjs')) return true;
  if (!path.endsWith('.js')) return false;
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type === 'module';
    } catch {
      // no package.json here: look further up
    }
  }
  return false;
}

/**
 * A CommonJS package stays outside the bundle and Node loads it: bundled, one imported on demand
 * arrived as `{ default }` only (no named exports; esign api crashed on every remote backend).
 * ES module packages are bundled: they have the same shape either way, and start faster so.
 */
const commonJsExternal = {
  name: 'commonjs-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('node:') || args.pluginData === 'probe') return undefined;
      const r = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'probe' });
      if (r.errors.length || r.external || isEsmFile(r.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const clientOnly = process.argv.includes('--client');

/** The pages' stylesheet and scripts. PDF.js is not bundled: the server serves it beside prep.js. */
const client = () =>
  Promise.all([
    pages(),
    build({
      entryPoints: { console: 'src/server/console/console.css' },
      outdir: 'dist/client',
      bundle: true,
      minify: true,
      logLevel: 'warning',
    }),
  ]);
const pages = () =>
  build({
    entryPoints: {
      page: 'src/server/pages/page.css',
      signing: 'src/server/pages/client/signing.ts',
      preparation: 'src/server/pages/client/preparation.ts',
      console: 'src/server/console/client/console.ts',
    },
    outdir: 'dist/client',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome111', 'firefox111', 'safari16.4'],
    minify: true,
    tsconfig: 'src/server/pages/client/tsconfig.json',
    plugins: [
      {
        name: 'pdfjs-beside',
        setup: (b) => b.onResolve({ filter: /^pdfjs-dist\// }, () => ({ path: './pdf.mjs', external: true })),
      },
    ],
    logLevel: 'warning',
  });

if (clientOnly) await client();
else {
  rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
  await build({
    entryPoints: {
      cli: 'src/wiring/main.ts',
      engine: 'src/local/engine.ts',
      server: 'src/server/app.ts',
      remote: 'src/remote/remote.ts',
      // Its own file, so that bin/esign.js can start esign verify's hashing before the CLI loads.
      hashFile: 'src/app/hashFile.ts',
      // The process a client's documents are parsed and rendered in (src/local/documents/sandbox/pool.ts).
      documentSandbox: 'src/local/documents/sandbox/child.ts',
    },
    outdir: 'dist',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [commonJsExternal],
    // Native or data-file packages load from node_modules at run time.
    external: ['better-sqlite3', 'playwright-core'],
    // Bundled CommonJS inside an ES module package (commander's esm.mjs wraps its index.js) requires Node's modules.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  await client();
}
