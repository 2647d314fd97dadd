// Bundles the CLI (and the engine, for library use and benchmarks) with esbuild, with lazy chunks
// for what commands import on demand; and the browser side of esign serve's pages into
// dist/client (`--client` builds only that: vitest's global setup does, for the page tests).
// CommonJS packages are not bundled (see commonJsExternal); type checking is `npm run typecheck` (tsc).
// The packages dist/ still loads at run time are the package's `dependencies`, each pinned to the
// version it was built against: the build stops when they differ (checkRuntimeDependencies).
// Source maps only on request (`--sourcemap`): they were two thirds of the package.
import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { build } from 'esbuild';

const root = dirname(dirname(new URL(import.meta.url).pathname));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

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
      const esmBuild = moduleBuild(r.path, packageName(args.path));
      if (esmBuild && args.path === packageName(args.path)) return { path: esmBuild };
      loadedAtRunTime.set(packageName(args.path), r.path);
      return { path: args.path, external: true };
    });
  },
};

/**
 * The ES module build a CommonJS package ships beside its main (its `module` field, with no
 * `exports` map to say otherwise): bundled like an ES module package (pdf-lib: 24 MB installed).
 */
function moduleBuild(path, name) {
  const parts = path.split(sep);
  const dir = parts.slice(0, parts.lastIndexOf('node_modules') + 1 + name.split('/').length).join(sep);
  const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return typeof meta.module === 'string' && !meta.exports ? join(dir, meta.module) : undefined;
}

/** Native or data-file packages Node loads from node_modules at run time. */
const NATIVE = ['better-sqlite3'];

/**
 * The engine's PDF.js (text for auto-placements, in the document sandbox) is the pages' copy in
 * dist/client/pdfjs (the same legacy build, minified), not a second one bundled: 2.4 MB less to install.
 */
const pdfjsFromClient = {
  name: 'pdfjs-from-client',
  setup(b) {
    b.onResolve({ filter: /^pdfjs-dist\/legacy\/build\/pdf(\.worker)?\.mjs$/ }, (args) => ({
      path: `./client/pdfjs/${args.path.endsWith('worker.mjs') ? 'pdf.worker.min.mjs' : 'pdf.min.mjs'}`,
      external: true,
    }));
  },
};
/**
 * Loaded only when the user installed it (the HTML renderer's browser driver): not a dependency,
 * an optional peer; without it HTML renders with the built-in renderer.
 */
const WHEN_PRESENT = ['playwright-core'];

/**
 * Packages dist/ does not load itself, pinned because installers get no lockfile (nor `overrides`):
 * light-my-request, fastify's, wants cookie 2 from 6.7 on, and cookie 2 wants Node 22.
 * Each is pinned to the version package-lock.json holds for every copy of it.
 */
const PINNED_FOR_INSTALLERS = ['light-my-request'];

/** Each package dist/ imports at run time, by name: where the build found it. */
const loadedAtRunTime = new Map();
const packageName = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/** The version of the package a file of node_modules belongs to, and whether it is the top-level copy. */
function installed(name) {
  const path = loadedAtRunTime.get(name) ?? createRequire(join(root, 'package.json')).resolve(`${name}/package.json`);
  const parts = path.split(sep);
  const at = parts.lastIndexOf('node_modules');
  const dir = parts.slice(0, at + 1 + name.split('/').length).join(sep);
  const top = parts.indexOf('node_modules') === at;
  return { version: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version, top };
}

/**
 * What a user installs is what was tested: `dependencies` are exactly the packages dist/ loads at
 * run time (the rest are bundled, so devDependencies), each at the exact version the build found at
 * the top of node_modules (where dist/ finds it once installed).
 */
function checkRuntimeDependencies() {
  const wanted = new Map([...loadedAtRunTime.keys(), ...NATIVE].map((n) => [n, installed(n)]));
  const deps = pkg.dependencies ?? {};
  const wrong = [];
  for (const [name, { version, top }] of wanted) {
    if (!top) wrong.push(`${name}: dist/ loads a copy nested under another package; it must be the top-level one`);
    else if (deps[name] !== version)
      wrong.push(`${name}: dist/ loads it at run time, so "dependencies" needs "${name}": "${version}"`);
  }
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages;
  for (const name of PINNED_FOR_INSTALLERS) {
    const versions = new Set(
      Object.entries(lock)
        .filter(([path]) => path === `node_modules/${name}` || path.endsWith(`/node_modules/${name}`))
        .map(([, entry]) => entry.version),
    );
    if (versions.size !== 1 || deps[name] !== [...versions][0])
      wrong.push(
        `${name}: pinned for installers to the one version package-lock.json holds (${[...versions].join(', ')})`,
      );
  }
  for (const name of Object.keys(deps))
    if (!wanted.has(name) && !WHEN_PRESENT.includes(name) && !PINNED_FOR_INSTALLERS.includes(name))
      wrong.push(`${name}: bundled into dist/, so it belongs in "devDependencies"`);
  for (const name of WHEN_PRESENT)
    if (!pkg.peerDependenciesMeta?.[name]?.optional)
      wrong.push(`${name}: loaded when present: an optional peer dependency`);
  if (wrong.length) {
    console.error(`scripts/build.mjs: package.json's dependencies are not what dist/ loads:\n  ${wrong.join('\n  ')}`);
    process.exit(1);
  }
}

const clientOnly = process.argv.includes('--client');

/**
 * The fonts evidence is drawn with (src/local/evidence/fonts.ts), copied into dist/fonts: only the
 * faces and chunks it reads, not the font packages whole (they stay devDependencies).
 */
function evidenceFonts() {
  const to = join(root, 'dist', 'fonts');
  for (const [pkg, files] of Object.entries(EVIDENCE_FONTS)) {
    // The packages export no package.json: they are found where npm put them.
    const from = join(root, 'node_modules', pkg);
    for (const f of files) {
      // Chunks of scripts Noto Sans draws first (Latin, Greek, Cyrillic, Vietnamese) are never read.
      const names = f.endsWith('/')
        ? readdirSync(join(from, f)).filter(
            (n) => n.endsWith('-wght-normal.woff2') && !/-(latin|latin-ext|cyrillic|greek|vietnamese)-wght/.test(n),
          )
        : [''];
      for (const n of names) cpSync(join(from, f, n), join(to, pkg, f, n), { recursive: true });
    }
  }
}
const fontsource = ['metadata.json', 'unicode.json', 'LICENSE', 'files/'];
const EVIDENCE_FONTS = {
  '@embedpdf/fonts-latin': ['LICENSE', ...['Regular', 'Bold', 'Italic'].map((w) => `fonts/NotoSans-${w}.ttf`)],
  '@embedpdf/fonts-arabic': ['LICENSE', 'fonts/NotoNaskhArabic-Regular.ttf', 'fonts/NotoNaskhArabic-Bold.ttf'],
  '@embedpdf/fonts-hebrew': ['LICENSE', 'fonts/NotoSansHebrew-Regular.ttf', 'fonts/NotoSansHebrew-Bold.ttf'],
  '@fontsource-variable/noto-sans-thai': fontsource,
  '@fontsource-variable/noto-sans-devanagari': fontsource,
  '@fontsource-variable/noto-sans-sc': fontsource,
  '@fontsource-variable/noto-sans-kr': fontsource,
};

/** PDF.js for the pages (its browser build, worker and font data): copied, the server serves it beside prep.js. */
function pdfjsFiles() {
  const from = dirname(createRequire(join(root, 'package.json')).resolve('pdfjs-dist/package.json'));
  const to = join(root, 'dist', 'client', 'pdfjs');
  for (const f of ['legacy/build/pdf.min.mjs', 'legacy/build/pdf.worker.min.mjs', 'standard_fonts', 'cmaps', 'LICENSE'])
    cpSync(join(from, f), join(to, f.split('/').at(-1)), { recursive: true });
}

/** The pages' stylesheet and scripts. PDF.js is not bundled: the server serves it beside prep.js. */
const client = () =>
  Promise.all([
    pdfjsFiles(),
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

/** The command tree and the API's operations, from the built program, for completion without it. */
async function completionFile() {
  const { completionFile: make } = await import(new URL('../dist/cli.js', import.meta.url).href);
  writeFileSync(join(root, 'dist', 'completion.json'), JSON.stringify(make()));
}

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
      // Shell completion without the program: bin/esign.js answers a Tab from dist/completion.json.
      complete: 'src/cli/commands/completion/fast.ts',
    },
    outdir: 'dist',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [pdfjsFromClient, commonJsExternal],
    external: [...NATIVE, ...WHEN_PRESENT],
    // Bundled CommonJS inside an ES module package (commander's esm.mjs wraps its index.js) requires Node's modules.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    sourcemap: process.argv.includes('--sourcemap') ? 'linked' : false,
    // Syntax and local names, not whitespace: lines, the names of functions and classes in a stack
    // trace, and the path comments the tests read stay (the installed package's size is tested).
    minifySyntax: true,
    minifyIdentifiers: true,
    keepNames: true,
    logLevel: 'warning',
  });
  checkRuntimeDependencies();
  await completionFile();
  evidenceFonts();
  await client();
}
