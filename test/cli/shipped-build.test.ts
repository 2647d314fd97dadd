// The shipped program (dist/, run by bin/esign.js) imports a package on demand with the same shape as
// plain Node does: a CommonJS package is left to Node (bundled, it arrived as `{ default }` only, and
// `esign api` crashed on every remote backend); only ES module packages, whose shape bundling keeps,
// are bundled.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const DIST = new URL('dist/', ROOT);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Every package the source imports on demand: `import('undici')`, `import('pdfjs-dist/...')`. */
function dynamicPackages(): string[] {
  const names = new Set<string>();
  for (const f of sourceFiles(fileURLToPath(new URL('src/', ROOT)))) {
    for (const m of readFileSync(f, 'utf8').matchAll(/\bimport\(\s*['"]([^'"./][^'"]*)['"]\s*\)/g))
      if (!m[1]!.startsWith('node:')) names.add(m[1]!);
  }
  return [...names].sort();
}

/** Where plain Node resolves a specifier, as an ES module import would. */
const resolved = (spec: string) =>
  fileURLToPath(
    execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `process.stdout.write(import.meta.resolve(${JSON.stringify(spec)}))`],
      { cwd: fileURLToPath(ROOT) },
    ).toString(),
  );

function isEsm(path: string): boolean {
  if (path.endsWith('.mjs')) return true;
  if (!path.endsWith('.js')) return false;
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { type?: string }).type === 'module';
    } catch {
      // no package.json here
    }
  }
  return false;
}

/** A CommonJS package that ships an ES module build (`module`, no `exports` map): the build bundles that one. */
function hasModuleBuild(spec: string): boolean {
  const name = spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
  const meta = JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, ROOT), 'utf8')) as {
    module?: string;
    exports?: unknown;
  };
  return typeof meta.module === 'string' && !meta.exports;
}

describe('the built program', () => {
  it('leaves every CommonJS package imported on demand to Node: dist/ imports it by name', () => {
    const dist = readdirSync(DIST)
      .filter((n) => n.endsWith('.js'))
      .map((n) => readFileSync(new URL(n, DIST), 'utf8'))
      .join('\n');
    const pkgs = dynamicPackages();
    expect(pkgs).toContain('undici');
    const wrong = pkgs.filter((p) => !isEsm(resolved(p)) && !hasModuleBuild(p) && !dist.includes(`import("${p}")`));
    expect(wrong).toEqual([]);
  });

  it('copies no CommonJS package entry into dist/ (undici, fastify stay in node_modules; pdf-lib from its ES build)', () => {
    // esbuild heads each module it bundles with a comment naming its path: the bundled packages.
    const bundled = new Set(
      readdirSync(DIST)
        .filter((n) => n.endsWith('.js'))
        .flatMap((n) =>
          [...readFileSync(new URL(n, DIST), 'utf8').matchAll(/^\/\/ \S*node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map(
            (m) => m[1]!,
          ),
        ),
    );
    expect([...bundled]).toEqual(expect.arrayContaining(['zod', '@modelcontextprotocol/sdk', 'pdf-lib']));
    // PDF.js is not bundled twice: the engine imports the pages' copy beside the bundle.
    expect([...bundled]).not.toContain('pdfjs-dist');
    const dist = readdirSync(DIST)
      .filter((n) => n.endsWith('.js'))
      .map((n) => readFileSync(new URL(n, DIST), 'utf8'))
      .join('\n');
    expect(dist).not.toMatch(/node_modules\/pdf-lib\/cjs\//);
    const runtime = Object.keys(
      (JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { dependencies: Record<string, string> })
        .dependencies,
    );
    expect(runtime).toEqual(expect.arrayContaining(['undici', 'fastify', 'better-sqlite3']));
    expect(runtime.filter((p) => bundled.has(p))).toEqual([]);
  });
});
