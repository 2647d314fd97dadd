// Set-up (issue 11, item 14): the locked tree installs on the oldest Node we support with no
// engine warning, the README's apt line works on a fresh system, and the demo keeps to itself.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

describe('set-up', () => {
  it('locks no package whose engines exclude the oldest supported Node (npm ci would warn EBADENGINE)', () => {
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    const excluded = Object.entries(lock.packages)
      .filter(
        ([path, p]) =>
          path && !Array.isArray(p.engines) && p.engines?.node && !semver.satisfies(oldest, p.engines.node),
      )
      .map(([path, p]) => `${path}@${p.version} needs node ${(p.engines as { node: string }).node}`);
    expect(excluded).toEqual([]);
  });

  it('has the README update the package lists before apt-get install', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const installs = readme.split('\n').filter((l) => /apt-get install/.test(l));
    expect(installs.length).toBeGreaterThan(0);
    for (const l of installs) expect(l).toMatch(/apt-get update && (sudo )?apt-get install/);
  });

  it("runs the demo in a data directory of its own and removes it, leaving the user's data alone", () => {
    const home = mkdtempSync(join(tmpdir(), 'esign-demo-home-'));
    const tmp = mkdtempSync(join(tmpdir(), 'esign-demo-tmp-'));
    try {
      const env = {
        ...process.env,
        HOME: home,
        XDG_DATA_HOME: join(home, '.local', 'share'),
        XDG_CONFIG_HOME: join(home, '.config'),
        TMPDIR: tmp,
        // A user's own settings that the demo must not follow: a remote server, a data directory.
        ESIGN_BASE_URL: 'http://127.0.0.1:1/api/v2',
        ESIGN_DATA_DIR: join(home, 'mine'),
        // dist/ is built by the global setup.
        ESIGN_DEMO_BUILT: '1',
      };
      const out = execFileSync('bash', [join(root, 'scripts', 'demo.sh')], { env, encoding: 'utf8', timeout: 240_000 });
      expect(out).toMatch(/== The signed PDF/);
      expect(out).toMatch(/\bco\b/);
      expect(existsSync(join(home, 'mine'))).toBe(false);
      expect(existsSync(join(home, '.local', 'share', 'esign'))).toBe(false);
      expect(existsSync(join(home, '.config', 'esign'))).toBe(false);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 300_000);

  it('npm test run outside npm (no vitest on PATH) says so, and leaves nothing in TMPDIR', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'esign-test-script-'));
    try {
      const r = spawnSync(process.execPath, [join(root, 'scripts', 'test.mjs')], {
        cwd: root,
        env: { PATH: dirname(process.execPath), TMPDIR: tmp },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect({ status: r.status, stderr: r.stderr }).toEqual({
        status: 1,
        stderr: 'npm test: could not start vitest (spawn vitest ENOENT): run it as npm test.\n',
      });
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
