// `esign serve` as a process: prints its address, logs each request, stops cleanly on SIGTERM. The
// CLI commands around it run in-process, as the binary would.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTRACT_B64, fixture, tempDir } from '../helpers.js';
import { esignIn, type InProcessResult } from './inProcess.js';
import { startServe } from './serveProcess.js';

/** A command that must succeed. */
async function ok(r: Promise<InProcessResult>): Promise<InProcessResult> {
  const done = await r;
  expect(done.exitCode, done.stderr).toBe(0);
  return done;
}

describe('esign serve', () => {
  it('serves the local data with a key made by esign local keys, and stops on SIGTERM', async () => {
    const data = tempDir('esign-serve-');
    const env = { ESIGN_DATA_DIR: data.dir };
    try {
      const key = (await ok(esignIn(['local', 'keys', 'create', '--name', 'ci', '-q'], { env }))).stdout.trim();
      expect(key).toMatch(/^esk_/);
      const { address, process: server } = await startServe(env);
      expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const r = await fetch(`${address}/api/v2/bundles/`, { headers: { authorization: `Token ${key}` } });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-blueink-pagination')).toBe('1,1,50,0');
      // The same CLI, pointed at the server: create (multipart), list, cancel, errors and exit codes.
      const remoteEnv = {
        ESIGN_BASE_URL: `${address}/api/v2`,
        ESIGN_API_KEY: key,
        ESIGN_DATA_DIR: `${data.dir}/unused`,
      };
      const created = await esignIn(
        [
          'bundle',
          'create',
          '--file',
          fixture('contract.pdf'),
          '--signer',
          'Rem Ote <rem@example.com>',
          '--live',
          '-q',
        ],
        { env: remoteEnv },
      );
      expect(created.exitCode, created.stderr).toBe(0);
      const slug = created.stdout.trim();
      expect((await ok(esignIn(['bundle', 'list', '-q'], { env: remoteEnv }))).stdout.trim()).toBe(slug);
      // Files over HTTP: early file access lets a sent Bundle's documents be downloaded through esign serve.
      expect((await esignIn(['local', 'features', 'enable', 'early_files'], { env })).exitCode).toBe(0);
      const dir = `${data.dir}/downloads`;
      const dl = await esignIn(['bundle', 'files', slug, '--download', dir, '--json'], { env: remoteEnv });
      expect(dl.exitCode, dl.stderr).toBe(0);
      const [saved] = JSON.parse(dl.stdout) as { path: string; sha256: string }[];
      expect(saved!.sha256).toBe(
        createHash('sha256')
          .update(readFileSync(fixture('contract.pdf')))
          .digest('hex'),
      );
      expect(readFileSync(saved!.path).equals(readFileSync(fixture('contract.pdf')))).toBe(true);
      const cancelled = await ok(esignIn(['bundle', 'cancel', slug, '--yes', '--json'], { env: remoteEnv }));
      expect(JSON.parse(cancelled.stdout).status).toBe('ca');
      const again = await esignIn(['bundle', 'cancel', slug, '--yes'], { env: remoteEnv });
      expect(again.exitCode).toBe(7);
      const badKey = await esignIn(['bundle', 'list'], { env: { ...remoteEnv, ESIGN_API_KEY: 'esk_wrong' } });
      expect(badKey.exitCode).toBe(4);
      server.kill('SIGTERM');
      const done = await server;
      expect(done.exitCode).toBe(0);
      expect(done.stderr).toMatch(/GET \/api\/v2\/bundles\/ 200 \d/);
      expect(done.stderr).toMatch(/esign serve: stopped/);
      expect(done.stderr).not.toContain(key);
    } finally {
      data.cleanup();
    }
  });

  it('works with any API v2 client given only the base URL and key: create, list page by page, retrieve, cancel', async () => {
    const data = tempDir('esign-serve-client-');
    const env = { ESIGN_DATA_DIR: data.dir };
    try {
      const key = (await ok(esignIn(['local', 'keys', 'create', '-q'], { env }))).stdout.trim();
      const { address, process: server } = await startServe(env);
      // A plain client: base URL, Token header, JSON, and the Link header for paging.
      const base = `${address}/api/v2`;
      const call = (path: string, init: RequestInit = {}) =>
        fetch(path.startsWith('http') ? path : `${base}${path}`, {
          ...init,
          headers: { authorization: `Token ${key}`, 'content-type': 'application/json', ...init.headers },
        });
      const slugs: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await call('/bundles/', {
          method: 'POST',
          body: JSON.stringify({
            label: `Client ${i}`,
            documents: [{ key: 'doc-1', file_b64: CONTRACT_B64, filename: 'contract.pdf' }],
            packets: [{ key: 'signer-1', name: 'Cli Ent', email: 'client@example.com' }],
          }),
        });
        expect(r.status).toBe(201);
        slugs.push(((await r.json()) as { id: string }).id);
      }
      const seen: string[] = [];
      let next: string | undefined = '/bundles/?per_page=2';
      while (next) {
        const r = await call(next);
        expect(r.status).toBe(200);
        seen.push(...((await r.json()) as { id: string }[]).map((b) => b.id));
        next = /<([^>]+)>; rel="next"/.exec(r.headers.get('link') ?? '')?.[1];
      }
      expect(seen.sort()).toEqual([...slugs].sort());
      const got = await call(`/bundles/${slugs[2]}/`);
      expect(((await got.json()) as { label: string }).label).toBe('Client 2');
      const cancelled = await call(`/bundles/${slugs[2]}/cancel/`, { method: 'PUT' });
      expect(((await cancelled.json()) as { status: string }).status).toBe('ca');
      expect(((await (await call(`/bundles/${slugs[2]}/`)).json()) as { status: string }).status).toBe('ca');
      server.kill('SIGTERM');
      expect((await server).exitCode).toBe(0);
    } finally {
      data.cleanup();
    }
  });
});
