// `esign serve` as a process: prints its address, logs each request, stops cleanly on SIGTERM.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { fixture, tempDir } from '../helpers.js';
import { BIN, startServe } from './serveProcess.js';

describe('esign serve', () => {
  it('serves the local data with a key made by esign local keys, and stops on SIGTERM', async () => {
    const data = tempDir('esign-serve-');
    const env = { ESIGN_DATA_DIR: data.dir };
    try {
      const key = (await execa('node', [BIN, 'local', 'keys', 'create', '--name', 'ci', '-q'], { env })).stdout.trim();
      expect(key).toMatch(/^esk_/);
      const { address, process: server } = await startServe(env);
      expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const r = await fetch(`${address}/api/v2/bundles/`, { headers: { authorization: `Token ${key}` } });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-blueink-pagination')).toBe('1,1,50,0');
      // The same CLI, pointed at the server: create (multipart), list, cancel, errors and exit codes.
      const remoteEnv = { ESIGN_BASE_URL: `${address}/api/v2`, ESIGN_API_KEY: key, ESIGN_DATA_DIR: `${data.dir}/unused` };
      const created = await execa('node', [BIN, 'bundle', 'create', '--file', fixture('contract.pdf'), '--signer', 'Rem Ote <rem@example.com>', '--live', '-q'], { env: remoteEnv, reject: false });
      expect(created.exitCode, created.stderr).toBe(0);
      const slug = created.stdout.trim();
      expect((await execa('node', [BIN, 'bundle', 'list', '-q'], { env: remoteEnv })).stdout.trim()).toBe(slug);
      const cancelled = await execa('node', [BIN, 'bundle', 'cancel', slug, '--yes', '--json'], { env: remoteEnv });
      expect(JSON.parse(cancelled.stdout).status).toBe('ca');
      const again = await execa('node', [BIN, 'bundle', 'cancel', slug, '--yes'], { env: remoteEnv, reject: false });
      expect(again.exitCode).toBe(7);
      const badKey = await execa('node', [BIN, 'bundle', 'list'], { env: { ...remoteEnv, ESIGN_API_KEY: 'esk_wrong' }, reject: false });
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
});
