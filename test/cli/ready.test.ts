// esign serve and esign webhook listen say they are ready in a form a script reads without polling
// a log: with --json the first line on stdout is {"ready": true, "url": ...}, and --ready-file PATH
// gets the same object once the port listens (so a request right after it is answered), removed
// when the command stops.
import { existsSync, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers.js';
import { BIN } from './serveProcess.js';

const tmp = useTempDir('esign-ready-');

/** Resolves with the file's text as soon as it appears (fs.watch on its folder: no polling). */
function whenWritten(file: string): Promise<string> {
  return new Promise((resolve) => {
    const w = watch(join(file, '..'), () => {
      if (existsSync(file)) {
        w.close();
        resolve(readFileSync(file, 'utf8'));
      }
    });
    if (existsSync(file)) {
      w.close();
      resolve(readFileSync(file, 'utf8'));
    }
  });
}

/** The first line a process writes on stdout. */
const firstLine = (p: ReturnType<typeof execa>, stream: 'stdout' | 'stderr' = 'stdout') =>
  new Promise<string>((resolve) => {
    let seen = '';
    p[stream]!.on('data', (d: Buffer) => {
      seen += d.toString();
      const nl = seen.indexOf('\n');
      if (nl >= 0) resolve(seen.slice(0, nl));
    });
  });

describe('readiness', () => {
  it('esign serve --json --ready-file: one JSON line first on stdout, the same in the file, gone after stop', async () => {
    const ready = join(tmp.dir, 'serve-ready.json');
    const data = join(tmp.dir, 'data');
    const p = execa('node', [BIN, 'serve', '--port', '0', '--json', '--ready-file', ready], {
      env: { ESIGN_DATA_DIR: data },
      reject: false,
    });
    const [line, file] = await Promise.all([firstLine(p), whenWritten(ready)]);
    const info = JSON.parse(line) as Record<string, unknown>;
    expect(info).toEqual({
      ready: true,
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      api: `${info.url}/api/v2`,
      console: `${info.url}/console/`,
      mcp: `${info.url}/mcp`,
      data_dir: data,
      pid: p.pid,
    });
    expect(JSON.parse(file)).toEqual(info);
    // Ready means listening: the first request is answered.
    expect((await fetch(`${info.api}/bundles/`)).status).toBe(401);
    p.kill('SIGTERM');
    const done = await p;
    expect(done.exitCode).toBe(0);
    expect(done.stdout.trim().split('\n')).toEqual([line]);
    expect(existsSync(ready)).toBe(false);
  });

  it('esign webhook listen --ready-file (and --json, on stderr: stdout is for deliveries only): its URL, before any delivery', async () => {
    const ready = join(tmp.dir, 'listen-ready.json');
    const p = execa(
      'node',
      [BIN, 'webhook', 'listen', '--secret', 's', '--json', '--ready-file', ready, '--count', '1'],
      { env: { ESIGN_DATA_DIR: join(tmp.dir, 'data') }, reject: false },
    );
    const [line, file] = await Promise.all([firstLine(p, 'stderr'), whenWritten(ready)]);
    const info = JSON.parse(line) as { ready: boolean; url: string; pid: number; forward_to: null };
    expect(info).toEqual({
      ready: true,
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/),
      forward_to: null,
      pid: p.pid,
    });
    expect(JSON.parse(file)).toEqual(info);
    const r = await fetch(info.url, { method: 'POST', body: '{}' });
    expect(r.status).toBe(401);
    p.kill('SIGTERM');
    const done = await p;
    expect(existsSync(ready)).toBe(false);
    // A script reading deliveries from stdout reads deliveries only.
    for (const l of String(done.stdout).split('\n').filter(Boolean)) expect(JSON.parse(l)).not.toHaveProperty('ready');
  });

  it('a ready file that cannot be written is a usage error naming it', async () => {
    const r = await execa(
      'node',
      [BIN, 'webhook', 'listen', '--secret', 's', '--ready-file', join(tmp.dir, 'no', 'such', 'dir', 'r.json')],
      { env: { ESIGN_DATA_DIR: join(tmp.dir, 'data') }, reject: false },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/esign: --ready-file .*r\.json: cannot write it/);
  });
});
