// Scenario files side by side against one `esign serve` (the built program): each file in a sandbox
// of its own, so one file's clock moves and Bundles are nothing to another's; the sandboxes are gone
// after the run (kept with --keep); --shared runs them on the server and key as given.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esignIn } from '../cli/inProcess.js';
import { type ServeProcess, startServe } from '../cli/serveProcess.js';
import { fixture, useTempDir } from '../helpers.js';
import { raw } from '../rawHttp.js';

const tmp = useTempDir('esign-scenario-sandboxes-');
const DAY = 86_400_000;
const FILES = 5;

/** File n: one Bundle, the clock moved n days; it must see its own move and its own Bundle only. */
const scenario = (n: number) => `name: Side by side ${n}
steps:
  - name: mine
    call: createBundle
    body:
      label: File ${n}
      packets: [{ key: ada, name: Ada Lovelace, email: ada${n}@example.com }]
      documents: [{ key: nda, file_path: nda.pdf }]
  - advance: ${n}d
    expect: { offset_ms: ${n * DAY} }
  - call: listBundles
    expect: { items: { length: 1 }, "items[0].label": File ${n} }
  - outbox: { kind: signing_request }
    expect: { length: 1, "[0].recipient": ada${n}@example.com }
  - advance: 1h
    expect: { offset_ms: ${n * DAY + 3_600_000} }
`;

interface Report {
  passed: boolean;
  files: { file: string; status: string; backend: string; steps: { status: string; error?: string }[] }[];
}

describe('scenario files side by side on one esign serve', () => {
  let serve: ServeProcess;
  let key: string;
  let files: string[];
  const env = () => ({
    ESIGN_CONFIG_DIR: join(tmp.dir, 'config'),
    ESIGN_DATA_DIR: join(tmp.dir, 'unused'),
    ESIGN_API_KEY: key,
  });

  beforeAll(async () => {
    const served = join(tmp.dir, 'served');
    const made = await esignIn(['local', 'keys', 'create', '--name', 'ci', '--json'], {
      env: { ESIGN_DATA_DIR: served },
    });
    key = (JSON.parse(made.stdout) as { key: string }).key;
    serve = await startServe({ ESIGN_DATA_DIR: served, NO_COLOR: '1' });
    const dir = join(tmp.dir, 'files');
    mkdirSync(dir);
    copyFileSync(fixture('nda.pdf'), join(dir, 'nda.pdf'));
    files = Array.from({ length: FILES }, (_, i) => {
      const file = join(dir, `file-${i + 1}.yaml`);
      writeFileSync(file, scenario(i + 1));
      return file;
    });
  });
  afterAll(async () => serve?.stop());

  const sandboxes = async () =>
    (await raw(serve.address, '/sandboxes/', { key })).json() as { id: string; base_url: string }[];

  it('run each in a sandbox of its own, seeing only its own Bundles and clock, then delete them', async () => {
    const started = performance.now();
    const r = await esignIn(
      ['scenario', 'run', ...files, '--backend', `${serve.address}/api/v2`, '--jobs', String(FILES), '--json'],
      {
        env: env(),
      },
    );
    console.log(`${FILES} files side by side in sandboxes: ${(performance.now() - started).toFixed(0)} ms`);
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as Report;
    expect(report.files.map((f) => [f.file, f.status, f.steps.find((s) => s.error)?.error])).toEqual(
      files.map((f) => [f, 'passed', undefined]),
    );
    expect(r.exitCode).toBe(0);
    const backends = report.files.map((f) => f.backend);
    expect(new Set(backends).size).toBe(FILES);
    for (const b of backends) expect(b).toMatch(new RegExp(`^${serve.address}/sandboxes/sbx_[0-9a-f]{20}/api/v2$`));
    // Nothing stayed: no sandbox, and nothing on the server's own engine, its clock unmoved.
    expect(await sandboxes()).toEqual([]);
    expect((await raw(serve.address, '/api/v2/bundles/', { key })).json()).toEqual([]);
    expect(((await raw(serve.address, '/sandbox/clock/', { key })).json() as { offset_ms: number }).offset_ms).toBe(0);
  }, 120_000);

  it('keeps each sandbox with --keep, saying where', async () => {
    const r = await esignIn(['scenario', 'run', files[0]!, '--backend', `${serve.address}/api/v2`, '--keep'], {
      env: env(),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const [kept] = await sandboxes();
    expect(kept).toBeDefined();
    expect(r.stderr).toContain(`Kept: sandbox ${kept!.id}`);
    const key2 = /ESIGN_API_KEY=(\S+)/.exec(r.stderr)![1]!;
    const bundles = (await raw(serve.address, `/sandboxes/${kept!.id}/api/v2/bundles/`, { key: key2 })).json() as {
      label: string;
    }[];
    expect(bundles.map((b) => b.label)).toEqual(['File 1']);
    expect((await raw(serve.address, `/sandboxes/${kept!.id}/`, { key, method: 'DELETE' })).status).toBe(204);
  }, 60_000);

  it('runs on the server and key as given with --shared, one file after another', async () => {
    const r = await esignIn(
      ['scenario', 'run', files[0]!, files[1]!, '--backend', `${serve.address}/api/v2`, '--shared', '--json'],
      {
        env: env(),
      },
    );
    const report = JSON.parse(r.stdout) as Report;
    expect(report.files.map((f) => f.backend)).toEqual([`${serve.address}/api/v2`, `${serve.address}/api/v2`]);
    // The second file sees the first's Bundle and clock move: what sandboxes are for.
    expect(report.files.map((f) => f.status)).toEqual(['passed', 'failed']);
    expect(((await raw(serve.address, '/api/v2/bundles/', { key })).json() as unknown[]).length).toBe(2);
    expect(await sandboxes()).toEqual([]);
  }, 60_000);

  it('refuses --shared on the embedded engine', async () => {
    const r = await esignIn(['scenario', 'run', files[0]!, '--shared'], { env: { ...env(), ESIGN_API_KEY: '' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--shared: only with a remote server');
  });
});
