// Issue 24 item 9: serve.json is private (0600) and trusted only when the server it names proves
// it holds the file's token; a live pid with a foreign program at the URL is not trusted.
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { runningServeUrl } from '../../src/local/store/serveState.js';
import { startServe } from '../cli/serveProcess.js';
import { tempDir } from '../helpers.js';

const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

function dataDir(): string {
  const d = tempDir();
  stops.push(d.cleanup);
  return d.dir;
}

/** Another program on 127.0.0.1 that answers every request 200, as a port's next owner might. */
async function foreignServer(): Promise<{ url: string; pid: number }> {
  const code =
    "require('http').createServer((q,s)=>s.end('0'.repeat(64))).listen(0,'127.0.0.1',function(){console.log(this.address().port)})";
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
  stops.push(() => child.kill('SIGKILL'));
  const port = await new Promise<string>((r) => child.stdout.once('data', (d: Buffer) => r(d.toString().trim())));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid! };
}

describe('serve.json', () => {
  it('is written 0600, even over a file that was readable by others', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'serve.json'), '{}');
    chmodSync(join(dir, 'serve.json'), 0o644);
    const e = new LocalEngine({ dataDir: dir });
    stops.push(() => e.close());
    e.announceServing('http://127.0.0.1:1');
    expect(statSync(join(dir, 'serve.json')).mode & 0o777).toBe(0o600);
    e.stopServing();
  });

  it('is not trusted when its pid is alive but the program at its URL is not that server', async () => {
    const dir = dataDir();
    const foreign = await foreignServer();
    // A file as an old esign wrote it, and one with a token the program cannot prove.
    writeFileSync(join(dir, 'serve.json'), JSON.stringify({ url: foreign.url, pid: foreign.pid }));
    expect(runningServeUrl(dir)).toBeUndefined();
    writeFileSync(
      join(dir, 'serve.json'),
      JSON.stringify({ url: foreign.url, pid: foreign.pid, token: 'stolen-or-guessed' }),
    );
    expect(runningServeUrl(dir)).toBeUndefined();
    const e = new LocalEngine({ dataDir: dir });
    stops.push(() => e.close());
    expect(e.servingUrl()).toBeUndefined();
  });

  it('is trusted when the esign serve it names answers the challenge (a real process; dist/ built)', async () => {
    const dir = dataDir();
    const e = new LocalEngine({ dataDir: dir });
    stops.push(() => e.close());
    const serve = await startServe({ PATH: process.env.PATH ?? '', ESIGN_DATA_DIR: dir });
    stops.push(async () => {
      serve.process.kill('SIGTERM');
      await serve.process;
    });
    expect(statSync(join(dir, 'serve.json')).mode & 0o777).toBe(0o600);
    expect(runningServeUrl(dir)).toBe(serve.address);
    expect(e.servingUrl()).toBe(serve.address);
    // The answer is an HMAC of the challenge: it never carries the token.
    const { token } = JSON.parse(readFileSync(join(dir, 'serve.json'), 'utf8')) as { token: string };
    const proof = await (await fetch(`${serve.address}/_esign/serve-proof?challenge=00112233445566778899`)).text();
    expect(proof).toMatch(/^[0-9a-f]{64}$/);
    expect(proof).not.toContain(token);
  }, 20_000);
});
