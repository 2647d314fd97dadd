// Issue 24 item 9: serve.json is private (0600) and trusted only when the server it names proves
// it holds the file's token; a live pid with a foreign program at the URL is not trusted.
// Issue 36 item 6: a stale one whose port accepts but never answers costs one unanswered look, once
// (its wait bounded by the look's own timeout), not one per command or per read of the file.
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { databasePath } from '../../src/local/store/db.js';
import { runningServe } from '../../src/local/store/serveState.js';
import { esignIn } from '../cli/inProcess.js';
import { startServe } from '../cli/serveProcess.js';
import { bundleRequest, programEnv, tempDir } from '../helpers.js';

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
 * A Node process listening on a free port of 127.0.0.1: `server` is the expression that makes its
 * server. The first line it prints is the port; `said` is every line after it.
 */
async function serverProcess(server: string): Promise<{ url: string; pid: number; said: () => string[] }> {
  const code = `${server}.listen(0, '127.0.0.1', function () { console.log(this.address().port); })`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  stops.push(() => child.kill('SIGKILL'));
  let out = '';
  const port = await new Promise<string>((r) =>
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) r(out.slice(0, out.indexOf('\n')));
    }),
  );
  const said = () => out.split('\n').slice(1, -1);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, said };
}

/**
 * Another program on 127.0.0.1 that answers every request 200, as a port's next owner might (or,
 * `silent`, that accepts connections and never answers).
 */
async function foreignServer(silent = false): Promise<{ url: string; pid: number; connections: () => number }> {
  // The silent one says a line per connection it accepts (and holds, unanswered).
  const server = await serverProcess(
    silent
      ? "require('net').createServer(() => console.log('c'))"
      : "require('http').createServer((q, s) => s.end('0'.repeat(64)))",
  );
  return { url: server.url, pid: server.pid, connections: () => server.said().length };
}

describe('serve.json', () => {
  it('is written 0600, even over a file that was readable by others', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'serve.json'), '{}');
    chmodSync(join(dir, 'serve.json'), 0o644);
    const e = new LocalEngine({ dataDir: dir });
    stops.push(() => e.close());
    e.announceServing('http://127.0.0.1:1', { console: true });
    expect(statSync(join(dir, 'serve.json')).mode & 0o777).toBe(0o600);
    e.stopServing();
  });

  it('is not trusted when its pid is alive but the program at its URL is not that server', async () => {
    const dir = dataDir();
    const foreign = await foreignServer();
    // A file as an old esign wrote it, and one with a token the program cannot prove.
    writeFileSync(join(dir, 'serve.json'), JSON.stringify({ url: foreign.url, pid: foreign.pid }));
    expect(runningServe(dir)?.url).toBeUndefined();
    writeFileSync(
      join(dir, 'serve.json'),
      JSON.stringify({ url: foreign.url, pid: foreign.pid, token: 'stolen-or-guessed' }),
    );
    expect(runningServe(dir)?.url).toBeUndefined();
    const e = new LocalEngine({ dataDir: dir });
    stops.push(() => e.close());
    expect(e.runningServer()?.url).toBeUndefined();
  });

  it('costs one unanswered look, once, when the program at its URL accepts and never answers', async () => {
    const dir = dataDir();
    const e = new LocalEngine({ dataDir: dir });
    stops.push(() => e.close());
    const b = await e.createBundle(bundleRequest());
    await e.settle();
    const env = { ESIGN_DATA_DIR: dir, ESIGN_BASE_URL: '', ESIGN_API_KEY: '' };
    const inspect = async () => {
      const r = await esignIn(['--json', 'bundle', 'inspect', b.id], { env });
      expect(r.exitCode, r.stderr).toBe(0);
    };
    const silent = await foreignServer(true);
    writeFileSync(join(dir, 'serve.json'), JSON.stringify({ url: silent.url, pid: silent.pid, token: 'stale' }));
    // The look gives up on its own (the program never answers: without its timeout this would not
    // return), and is not made again for a while: not by the next look, nor by a whole command
    // (fbda499: one look per read of the file, 7.8 s more than usual).
    expect(runningServe(dir)?.url).toBeUndefined();
    expect(runningServe(dir)?.url).toBeUndefined();
    await inspect();
    await expect.poll(silent.connections).toBe(1);
    expect(silent.connections()).toBe(1);
  }, 60_000);

  it('is looked up before a write takes the lock: the server it names waits for that lock with its requests', async () => {
    const dir = dataDir();
    const e = new LocalEngine({ dataDir: dir });
    stops.push(() => e.close());
    const b = await e.createBundle(
      bundleRequest({ packets: [{ key: 'bob', name: 'Bob Example', email: 'bob@example.com', deliver_via: 'embed' }] }),
    );
    await e.settle();
    // A server holding serve.json's token, as esign serve does, which before it answers a challenge
    // tries to take the database's write lock without waiting (esign serve's writes wait for it, and
    // answer nothing meanwhile) and says whether it could.
    const token = 'a-token-this-server-holds';
    const server = await serverProcess(`(() => {
      const db = new (require('better-sqlite3'))(${JSON.stringify(databasePath(dir))}, { timeout: 0 });
      return require('http').createServer((q, s) => {
        let free = true;
        try { db.exec('BEGIN IMMEDIATE'); db.exec('ROLLBACK'); } catch { free = false; }
        console.log(free ? 'free' : 'locked');
        const challenge = new URL(q.url, 'http://x').searchParams.get('challenge');
        s.end(require('crypto').createHmac('sha256', ${JSON.stringify(token)}).update(challenge).digest('hex'));
      });
    })()`);
    writeFileSync(join(dir, 'serve.json'), JSON.stringify({ url: server.url, pid: server.pid, token, console: true }));
    // As a command's process would: an engine that has not looked yet.
    const cli = new LocalEngine({ dataDir: dir });
    stops.push(() => cli.close());
    const embed = await cli.createEmbedUrl(b.packets[0]!.id);
    expect(embed.url.startsWith(`${server.url}/sign/`)).toBe(true);
    await expect.poll(() => server.said().length).toBeGreaterThan(0);
    expect(server.said()).toEqual(['free']);
  });

  it('is trusted when the esign serve it names answers the challenge (a real process; dist/ built)', async () => {
    const dir = dataDir();
    const e = new LocalEngine({ dataDir: dir });
    stops.push(() => e.close());
    const serve = await startServe({ ...programEnv(), ESIGN_DATA_DIR: dir });
    stops.push(async () => {
      serve.process.kill('SIGTERM');
      await serve.process;
    });
    expect(statSync(join(dir, 'serve.json')).mode & 0o777).toBe(0o600);
    // The answer is an HMAC of the challenge: it never carries the token (asked first, which also
    // readies the route a fresh server loads on its first request).
    const { token } = JSON.parse(readFileSync(join(dir, 'serve.json'), 'utf8')) as { token: string };
    const proof = await (await fetch(`${serve.address}/_esign/serve-proof?challenge=00112233445566778899`)).text();
    expect(proof).toMatch(/^[0-9a-f]{64}$/);
    expect(proof).not.toContain(token);
    // Trusted at the first look (an engine looks again only once its last look is a second old).
    expect(runningServe(dir)?.url).toBe(serve.address);
    await expect.poll(() => e.runningServer()?.url, { timeout: 5_000, interval: 500 }).toBe(serve.address);
  }, 120_000);
});
