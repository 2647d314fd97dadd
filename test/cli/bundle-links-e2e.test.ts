// Links that work: with an `esign serve` running for the data directory, inspect's file and
// message links point at it and open; once it stops, inspect says so. And a wait in one process
// notices a signature made by another. Real processes (dist/ must be built).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { bundleRequest, tempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';
import { BIN, startServe } from './serveProcess.js';

describe('links and waits across processes', () => {
  it('points links at the running esign serve, and says plainly when none runs', async () => {
    const data = tempDir('esign-links-');
    const env = { ESIGN_DATA_DIR: data.dir, ESIGN_BASE_URL: '', ESIGN_API_KEY: '' };
    const engine = new LocalEngine({ dataDir: data.dir });
    try {
      const b = await engine.createBundle(bundleRequest());
      await engine.settle();
      for (const p of (await engine.getBundle(b.id)).packets) await engine.signPacket(p.id, {});
      await engine.settle();

      const { address, process: server } = await startServe(env);
      expect(existsSync(join(data.dir, 'serve.json'))).toBe(true);
      const r = await esignIn(['--json', 'bundle', 'inspect', b.id], { env });
      const x = JSON.parse(r.stdout) as {
        serving_url: string;
        links_note: string | null;
        files: { file_url: string; size: number }[];
        timeline: { source: string; what: string }[];
      };
      expect(x.serving_url).toBe(address);
      expect(x.links_note).toBeNull();
      for (const f of x.files) {
        expect(f.file_url.startsWith(`${address}/`)).toBe(true);
        const res = await fetch(f.file_url);
        expect(res.status).toBe(200);
        expect((await res.arrayBuffer()).byteLength).toBe(f.size);
      }
      // The signing request went out before the server started: its link is shown on the server now.
      const request = x.timeline.find((t) => t.source === 'message' && t.what.includes('http'))!;
      expect(request.what).toContain(`${address}/`);

      server.kill('SIGTERM');
      await server;
      expect(existsSync(join(data.dir, 'serve.json'))).toBe(false);
      const after = JSON.parse((await esignIn(['--json', 'bundle', 'inspect', b.id], { env })).stdout) as {
        serving_url: string | null;
        links_note: string;
      };
      expect(after.serving_url).toBeNull();
      expect(after.links_note).toMatch(/No esign serve runs for this data directory.*esign serve/);
    } finally {
      await engine.close();
      data.cleanup();
    }
  });

  it('a spawned esign bundle wait notices a signature made by this process', async () => {
    const data = tempDir('esign-wait-');
    const engine = new LocalEngine({ dataDir: data.dir });
    try {
      const b = await engine.createBundle(bundleRequest());
      await engine.settle();
      // On a terminal (script(1) gives it one) the wait draws its live line once it watches: the
      // signal to sign, so the signature is made while it waits, never before it looked.
      const cmd = `'${process.execPath}' '${BIN}' bundle wait ${b.id} --timeout 20s`;
      const waiting = execa('script', ['-qfec', cmd, '/dev/null'], {
        env: { ESIGN_DATA_DIR: data.dir, NO_COLOR: '1' },
        reject: false,
      });
      let screen = '';
      await new Promise<void>((resolve, reject) => {
        waiting.stdout!.on('data', (c: Buffer) => {
          screen += c.toString();
          if (/waiting for complete/.test(screen)) resolve();
        });
        void waiting.then((r) => reject(new Error(`the wait ended before it waited: ${r.stdout}`)));
      });
      expect(screen).toMatch(new RegExp(`${b.id}\\s+Sent\\s+0/2 signed`));
      // How soon it notices (within 1 s) is bench/wait.mjs's figure; here, that it ends complete.
      for (const p of b.packets) await engine.signPacket(p.id, {});
      const r = await waiting;
      expect(r.exitCode, r.stdout).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`${b.id}\\s+Complete\\s+2/2 signed`));
      expect(r.stdout).toContain('The Bundle reached complete.');
    } finally {
      await engine.close();
      data.cleanup();
    }
  });
});
