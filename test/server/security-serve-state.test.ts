// Issue 24 item 9: serve.json is private (0600) and trusted only when the server it names proves
// it holds the file's token; a live pid with a foreign program at the URL is not trusted.
// Issue 36 item 6: a stale one whose port accepts but never answers costs at most 300 ms, once.
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { runningServeUrl } from '../../src/local/store/serveState.js';
import { esignIn } from '../cli/inProcess.js';
import { startServe } from '../cli/serveProcess.js';
import { bundleRequest, tempDir } from '../helpers.js';

const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

function dataDir(): string {
  const d = tempDir();
  stops.push(d.cleanup);
  return d.dir;
}

/**
 * Another program on 127.0.0.1 that answers every request 200, as a port's next owner might (or,
 * `silent`, that accepts connections and never answers).
 */
async function foreignServer(silent = false): Promise<{ url: string; pid: number }> {
  const code = silent
    ? "require('net').createServer(()=>{}).listen(0,'127.0.0.1',function(){console.log(this.address().port)})"
    : "require('http').createServer((q,s)=>s.end('0'.repeat(64))).listen(0,'127.0.0.1',function(){console.log(this.address().port)})";
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

  it('costs at most 300 ms, once, when the program at its URL accepts and never answers', async () => {
    const dir = dataDir();
    const e = new LocalEngine({ dataDir: dir });
    stops.push(() => e.close());
    const b = await e.createBundle(bundleRequest());
    await e.settle();
    const env = { ESIGN_DATA_DIR: dir, ESIGN_BASE_URL: '', ESIGN_API_KEY: '' };
    const inspect = async () => {
      const t0 = performance.now();
      const r = await esignIn(['--json', 'bundle', 'inspect', b.id], { env });
      expect(r.exitCode, r.stderr).toBe(0);
      return performance.now() - t0;
    };
    await inspect();
    const usual = await inspect();

    // Checks of a program that answers at once (wrongly), and one of a silent one: the silent one
    // costs its 300 ms more (a thread's start is the rest, and varies with the machine's load: the
    // slowest of three answered checks stands for it).
    const answering = await foreignServer();
    writeFileSync(join(dir, 'serve.json'), JSON.stringify({ url: answering.url, pid: answering.pid, token: 'x' }));
    let prompt = 0;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      expect(runningServeUrl(dir)).toBeUndefined();
      prompt = Math.max(prompt, performance.now() - t0);
    }
    const silent = await foreignServer(true);
    writeFileSync(join(dir, 'serve.json'), JSON.stringify({ url: silent.url, pid: silent.pid, token: 'stale' }));
    const t1 = performance.now();
    expect(runningServeUrl(dir)).toBeUndefined();
    const waited = performance.now() - t1;
    expect(waited - prompt, `${waited.toFixed(0)} ms, an answered check ${prompt.toFixed(0)} ms`).toBeLessThan(450);
    // Not asked again for a while: the next look is free.
    const t2 = performance.now();
    expect(runningServeUrl(dir)).toBeUndefined();
    expect(performance.now() - t2).toBeLessThan(50);
    // A whole command in a new process's place (fbda499: 7.8 s more than usual).
    const stale = await inspect();
    expect(stale - usual, `usual ${usual.toFixed(0)} ms, with the stale file ${stale.toFixed(0)} ms`).toBeLessThan(
      1_000,
    );
  }, 30_000);

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
