// Bundles the CLI (and the engine, for library use and benchmarks) with esbuild, with lazy chunks
// for what commands import on demand; and the browser side of esign serve's pages into
// dist/client (`--client` builds only that: vitest's global setup does, for the page tests).
// Packages are not bundled (see below); type checking is `npm run typecheck` (tsc).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const clientOnly = process.argv.includes('--client');

/** The pages' stylesheet and scripts. PDF.js is not bundled: the server serves it beside prep.js. */
const client = () => Promise.all([pages(), build({
  entryPoints: { console: 'src/server/console/console.css' },
  outdir: 'dist/client', bundle: true, minify: true, logLevel: 'warning',
})]);
const pages = () => build({
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
  plugins: [{
    name: 'pdfjs-beside',
    setup: (b) => b.onResolve({ filter: /^pdfjs-dist\// }, () => ({ path: './pdf.mjs', external: true })),
  }],
  logLevel: 'warning',
});

if (clientOnly) await client();
else {
  rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
  await build({
    entryPoints: { cli: 'src/cli/main.ts', engine: 'src/local/engine.ts', server: 'src/server/app.ts', remote: 'src/remote/remote.ts' },
    outdir: 'dist',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // Native or data-file packages load from node_modules at run time.
    external: ['better-sqlite3', 'playwright-core'],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  await client();
}
