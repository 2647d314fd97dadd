// Item 7: `bundle files --download` from a server esign does not control (a real HTTP server on
// 127.0.0.1 playing one): names become safe file names inside the directory, nothing is overwritten
// without --clobber, and no escape sequence from the server reaches the terminal.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../cli/serveProcess.js';
import { tempDir } from '../helpers.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
let server: Server;
let origin = '';
const tmp = tempDir('esign-dl-');
const ESC = '\x1b]0;pwned\x07\x1b[2J\x1b[31m';

const NAMES: unknown[] = ['..', '.', '', 42, '.bashrc', `evil${ESC}.pdf`, 'report.pdf', '../../escape.pdf'];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, origin);
    if (url.pathname === '/api/v2/bundles/HOSTILE/files/') {
      const files = NAMES.map((name, i) => ({
        file_url: `${origin}/f/${i}`,
        expires: '2099-01-01T00:00:00Z',
        name,
        sha256: sha(`content ${i}`),
      }));
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(files));
    }
    if (url.pathname === '/api/v2/bundles/LIAR/files/')
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify([
            { file_url: `${origin}/f/0`, expires: '2099-01-01T00:00:00Z', name: 'x.pdf', sha256: sha('other') },
          ]),
        );
    const m = /^\/f\/(\d+)$/.exec(url.pathname);
    if (m) return res.writeHead(200).end(`content ${m[1]}`);
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ code: 'not_found', message: `Gone ${ESC}away` }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  tmp.cleanup();
});

const esign = (args: string[]) =>
  execa('node', [BIN, ...args], {
    env: {
      ESIGN_BASE_URL: `${origin}/api/v2`,
      ESIGN_API_KEY: 'k',
      ESIGN_DATA_DIR: join(tmp.dir, 'data'),
      NO_COLOR: '1',
    },
    reject: false,
  });

describe('bundle files --download from a hostile server', () => {
  it('saves every file under a safe name inside the directory, and keeps existing files without --clobber', async () => {
    const dir = join(tmp.dir, 'out');
    mkdirSync(dir);
    writeFileSync(join(dir, 'report.pdf'), 'mine');
    const r = await esign(['bundle', 'files', 'HOSTILE', '--download', dir]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/report\.pdf exists; pass --clobber/);
    expect(readFileSync(join(dir, 'report.pdf'), 'utf8')).toBe('mine');
    expect(`${r.stdout}${r.stderr}`).not.toContain('\x1b');
    // Nothing was written outside the directory, not even a temporary file.
    expect(readdirSync(tmp.dir).sort()).toEqual(['data', 'out'].filter((d) => existsSync(join(tmp.dir, d))).sort());
    const names = readdirSync(dir);
    expect(names.every((n) => !n.startsWith('.') && !/[\x00-\x1f\x7f]/.test(n))).toBe(true);

    const again = await esign(['bundle', 'files', 'HOSTILE', '--download', dir, '--clobber']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(readFileSync(join(dir, 'report.pdf'), 'utf8')).toBe('content 6');
    const saved = readdirSync(dir);
    expect(saved).toHaveLength(NAMES.length);
    expect(saved.every((n) => !n.startsWith('.') && !n.endsWith('.part'))).toBe(true);
    expect(saved).toContain('_bashrc');
    expect(existsSync(join(tmp.dir, 'escape.pdf'))).toBe(false);
    expect(again.stdout).not.toContain('\x1b');
  });

  it('exits 9 on a SHA-256 mismatch and leaves no file', async () => {
    const dir = join(tmp.dir, 'liar');
    const r = await esign(['bundle', 'files', 'LIAR', '--download', dir]);
    expect(r.exitCode).toBe(9);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('strips escape sequences from server error messages', async () => {
    const r = await esign(['bundle', 'get', 'NOPE']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain('Gone');
    expect(r.stderr).not.toContain('\x1b');
  });
});
