// The package as a user installs it: `npm pack` of this checkout (dist/ as built), installed from
// the tarball into an empty prefix by npm from the registry, then the demo's job run with the
// installed `esign` on the embedded engine. Slow (it spawns npm): outside `npm run test:fast`.
//
// better-sqlite3 is the one native dependency: on a user's machine prebuild-install downloads its
// prebuilt binary, and only without network does it compile (minutes on two cores). Here no such
// download can be made, so the test puts the binary this checkout built, packed as a prebuild, where
// prebuild-install looks before downloading (the npm cache's _prebuilds): the install runs the same
// steps as a user's. ESIGN_PACK_FROM_SOURCE=1 skips that and lets it compile.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LIMIT_MB = 50;
const work = mkdtempSync(join(tmpdir(), 'esign-package-'));
const prefix = join(work, 'prefix');
const cache = join(work, 'npm-cache');
/** npm and the installed esign run on the Node that runs the suite (CI runs it on 20, 22 and 24). */
const PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`;
const ESIGN = join(prefix, 'bin', 'esign');

function sizeOf(path: string): number {
  const s = statSync(path, { throwIfNoEntry: false });
  if (!s) return 0;
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

/** better-sqlite3's binary from this checkout as the prebuild prebuild-install would download, in `cache`. */
function seedPrebuild(): void {
  const require = createRequire(join(ROOT, 'package.json'));
  const sqliteDir = dirname(require.resolve('better-sqlite3/package.json'));
  const installer = dirname(createRequire(join(sqliteDir, 'package.json')).resolve('prebuild-install/package.json'));
  const where = execFileSync(
    process.execPath,
    [
      '-e',
      `const util = require(${JSON.stringify(join(installer, 'util.js'))});
       const pkg = require(${JSON.stringify(join(sqliteDir, 'package.json'))});
       const url = util.getDownloadUrl({ pkg, runtime: 'node', abi: process.versions.modules,
         platform: process.platform, arch: process.arch, libc: '', 'tag-prefix': 'v' });
       process.stdout.write(util.cachedPrebuild(url));`,
    ],
    { env: { ...process.env, npm_config_cache: cache } },
  ).toString();
  mkdirSync(dirname(where), { recursive: true });
  execFileSync('tar', ['-czf', where, '-C', sqliteDir, 'build/Release/better_sqlite3.node']);
}

function esign(args: string[], env: NodeJS.ProcessEnv, cwd = work) {
  const r = spawnSync(ESIGN, args, { cwd, env: { ...env, PATH }, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`esign ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

let install = '';
let installedMb = 0;

beforeAll(() => {
  const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: ROOT,
    env: { ...process.env, PATH },
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
  const tarball = join(work, (JSON.parse(packed) as { filename: string }[])[0]!.filename);
  if (!process.env.ESIGN_PACK_FROM_SOURCE) seedPrebuild();
  const r = spawnSync(
    'npm',
    ['install', '--global', '--prefix', prefix, '--cache', cache, '--no-audit', '--no-fund', tarball],
    { cwd: work, env: { ...process.env, PATH }, encoding: 'utf8', timeout: 15 * 60_000 },
  );
  install = `${r.stdout}\n${r.stderr}`;
  if (r.status !== 0) throw new Error(`npm install of the tarball failed (${r.status}):\n${install}`);
  installedMb = sizeOf(join(prefix, 'lib', 'node_modules', 'esign')) / 1e6;
  console.log(`esign installed from its tarball on Node ${process.version}: ${installedMb.toFixed(1)} MB`);
}, 20 * 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the package as a user installs it', () => {
  it('installs with no engine warning, with the dependencies dist/ loads and nothing else', () => {
    expect(install).not.toMatch(/EBADENGINE|Unsupported engine/);
    const installed = join(prefix, 'lib', 'node_modules', 'esign');
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const top = readdirSync(join(installed, 'node_modules')).flatMap((n) =>
      n.startsWith('@') ? readdirSync(join(installed, 'node_modules', n)).map((m) => `${n}/${m}`) : [n],
    );
    for (const [name, version] of Object.entries(pkg.dependencies)) {
      const got = JSON.parse(readFileSync(join(installed, 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
      };
      expect(got.version, name).toBe(version);
    }
    // Bundled into dist/ or optional, so never installed: the PDF.js package, its native canvas,
    // the browser driver, zod, the MCP SDK.
    for (const name of ['pdfjs-dist', '@napi-rs/canvas', 'playwright-core', 'zod', '@modelcontextprotocol/sdk'])
      expect(top, name).not.toContain(name);
    expect(readdirSync(join(installed, 'dist')).filter((n) => n.endsWith('.map'))).toEqual([]);
  });

  it(`is under ${LIMIT_MB} MB installed`, () => {
    expect(installedMb).toBeGreaterThan(1);
    expect(installedMb).toBeLessThan(LIMIT_MB);
  });

  it("runs the demo's job with the installed esign: create, sign, download, verify", () => {
    const env: NodeJS.ProcessEnv = {
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      ESIGN_DATA_DIR: join(work, 'data'),
      ESIGN_CONFIG_DIR: join(work, 'config'),
    };
    const installed = join(prefix, 'lib', 'node_modules', 'esign');
    expect(esign(['--version'], env).trim()).toBe(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    );
    // A signature placed by the text of the PDF: PDF.js, bundled, reads it without its native canvas.
    writeFileSync(
      join(work, 'spec.json'),
      JSON.stringify({
        label: 'Services agreement',
        in_order: true,
        packets: [
          { key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
          { key: 'bob', name: 'Bob Example', email: 'bob@example.com' },
        ],
        documents: [
          {
            key: 'contract',
            file_path: join(installed, 'fixtures', 'contract.pdf'),
            auto_placements: [{ key: 'sig', kind: 'sig', search: 'Signature:', w: 150, h: 24, editors: ['ada'] }],
          },
        ],
      }),
    );
    const slug = esign(['bundle', 'create', '-f', 'spec.json', '-q'], env).trim();
    const bundle = JSON.parse(esign(['bundle', 'get', slug, '--json'], env)) as {
      status: string;
      packets: { id: string }[];
    };
    expect(bundle.status).toBe('se');
    for (const p of bundle.packets) esign(['local', 'sign', p.id, '-q'], env);
    expect((JSON.parse(esign(['bundle', 'get', slug, '--json'], env)) as { status: string }).status).toBe('co');
    const files = join(work, 'files');
    esign(['bundle', 'files', slug, '--download', files], env);
    const downloaded = readdirSync(files);
    expect(downloaded.length).toBeGreaterThanOrEqual(2);
    const verified = JSON.parse(esign(['verify', files, '--json'], env)) as {
      status: string;
      envelope: { bundle_slug: string };
    }[];
    expect(verified).toHaveLength(downloaded.length);
    for (const v of verified) expect([v.status, v.envelope.bundle_slug]).toEqual(['match', slug]);
  }, 300_000);

  it('renders an HTML document without the browser driver (the built-in renderer), Chromium or not', () => {
    const env: NodeJS.ProcessEnv = {
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      ESIGN_DATA_DIR: join(work, 'data-html'),
      ESIGN_CONFIG_DIR: join(work, 'config-html'),
    };
    writeFileSync(
      join(work, 'html.json'),
      JSON.stringify({
        label: 'Form',
        packets: [{ key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' }],
        documents: [{ key: 'form', file_html: '<h1>Form</h1><p>Name <input name="name" data-signer="ada"></p>' }],
      }),
    );
    const slug = esign(['bundle', 'create', '-f', 'html.json', '-q'], env).trim();
    esign(['bundle', 'wait', slug, '--until', 'sent', '--timeout', '60s'], env);
    expect((JSON.parse(esign(['bundle', 'get', slug, '--json'], env)) as { status: string }).status).toBe('se');
  }, 180_000);
});
