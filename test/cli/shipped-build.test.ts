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

describe('the built program', () => {
  it('leaves every CommonJS package imported on demand to Node: dist/ imports it by name', () => {
    const dist = readdirSync(DIST)
      .filter((n) => n.endsWith('.js'))
      .map((n) => readFileSync(new URL(n, DIST), 'utf8'))
      .join('\n');
    const pkgs = dynamicPackages();
    expect(pkgs).toContain('undici');
    const wrong = pkgs.filter((p) => !isEsm(resolved(p)) && !dist.includes(`import("${p}")`));
    expect(wrong).toEqual([]);
  });

  it('copies no CommonJS package entry into dist/ (undici, pdf-lib, fastify stay in node_modules)', () => {
    const sources = readdirSync(DIST)
      .filter((n) => n.endsWith('.js.map'))
      .flatMap((n) => (JSON.parse(readFileSync(new URL(n, DIST), 'utf8')) as { sources: string[] }).sources);
    for (const pkg of ['undici', 'pdf-lib', 'fastify', 'cli-table3'])
      expect(
        sources.filter((s) => s.includes(`node_modules/${pkg}/`)),
        pkg,
      ).toEqual([]);
  });
});
