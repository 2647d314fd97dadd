// Bundles the CLI (and the engine, for library use and benchmarks) with esbuild, with lazy chunks
// for what commands import on demand.
// Native better-sqlite3 stays external; type checking is `npm run typecheck` (tsc).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli/main.ts', engine: 'src/local/engine.ts', server: 'src/server/app.ts', remote: 'src/remote/remote.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'bundle',
  // Native or data-file packages load from node_modules at run time.
  external: ['better-sqlite3', 'playwright-core'],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  sourcemap: 'linked',
  logLevel: 'warning',
});
