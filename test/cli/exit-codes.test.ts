// The right exit code, every time: bad flag values are usage errors naming the flag, state
// conflicts are 7, usage errors are one `esign:` line (or JSON with --json), a failure survives a
// closed pipe, and the README's table is the one `esign help exit-codes` prints.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_TABLE } from '../../src/cli/exitCodes.js';
import { fixture, tempDir } from '../helpers.js';
import { startReceiver } from '../webhooks/receiver.js';
import { esignIn } from './inProcess.js';
import { BIN } from './serveProcess.js';

let data: ReturnType<typeof tempDir>;
let env: Record<string, string>;
const esign = (args: string[], o: { env?: Record<string, string> } = {}) =>
  esignIn(args, { env: { ...env, ...o.env } });
const signer = ['--file', fixture('contract.pdf'), '--signer', 'Ada <ada@example.com>'];

beforeAll(() => {
  data = tempDir('esign-exit-');
  env = { ESIGN_DATA_DIR: data.dir, ESIGN_CONFIG_DIR: join(data.dir, 'config') };
});
afterAll(() => data.cleanup());

describe('usage errors name the flag (exit 2), before any request', () => {
  it.each([
    [['bundle', 'create', '--file', fixture('contract.pdf')], '--signer'],
    [['bundle', 'list', '--status', 'xx'], '--status'],
    [['bundle', 'list', '--status-in', 'se,xx'], '--status-in'],
    [['bundle', 'list', '--created-after', 'yesterday'], '--created-after'],
    [['verify', '--hash', 'abc'], '--hash'],
    [['webhook', 'events', '--after', 'yesterday'], '--after'],
    [['webhook', 'create', '--name', 'w', '--url', 'http://127.0.0.1:9/', '--events', 'bundle_sent,nope'], '--events'],
    [['bundle', 'wait', 'AAAAAAAAAA', '--until', 'done'], '--until'],
    [['completion', 'tcsh'], 'shell'],
  ])('%j', async (args, flag) => {
    const r = await esign(args);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^esign: /);
    expect(r.stderr.split('\n')[0]).toContain(flag);
  });

  it('writes a usage error as one esign: line, or as a JSON error object with --json', async () => {
    const plain = await esign(['bundle', 'list', '--bogus']);
    expect(plain.exitCode).toBe(2);
    expect(plain.stderr.split('\n')[0]).toBe("esign: unknown option '--bogus'");
    const json = await esign(['bundle', 'list', '--bogus', '--json']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stderr)).toEqual({ code: 'usage', message: "unknown option '--bogus'", exit_code: 2 });
  });

  it('refuses a base URL that is not one (ESIGN_BASE_URL=notaurl) as a usage error', async () => {
    const r = await esign(['bundle', 'list'], { env: { ESIGN_BASE_URL: 'notaurl' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^esign: ESIGN_BASE_URL "notaurl" is not an http\(s\) URL/);
  });
});

describe('state conflicts and failures', () => {
  it('exits 7 when bundle send meets a Bundle already sent, with the API error under --json', async () => {
    const slug = (await esign(['bundle', 'create', ...signer, '-q'])).stdout;
    const r = await esign(['bundle', 'send', slug]);
    expect(r.exitCode, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/^esign: The Bundle cannot be sent: The Bundle is sent/);
    const json = await esign(['bundle', 'send', slug, '--json']);
    expect(json.exitCode).toBe(7);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: 'invalid', message: expect.stringContaining('is sent') });
  });

  it('exits 7 when bundle update meets a Bundle whose state takes no change (cancelled)', async () => {
    const slug = (await esign(['bundle', 'create', ...signer, '-q'])).stdout;
    expect((await esign(['bundle', 'cancel', slug, '--yes', '-q'])).exitCode).toBe(0);
    const r = await esign(['bundle', 'update', slug, '--reminder-interval', '3']);
    expect(r.exitCode, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/^esign: The Bundle is cancelled \(ca\); only drafts and sent Bundles can be updated/);
    // A bad flag value is a usage error naming the flag (2), checked before any request: not a conflict.
    const open = (await esign(['bundle', 'create', ...signer, '-q'])).stdout;
    const bad = await esign(['bundle', 'update', open, '--reminder-interval', '45']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^esign: --reminder-interval 45: /);
  });

  it('exits non-zero when webhook resend could not deliver, and says it once (not "HTTP 200 HTTP 200")', async () => {
    const rx = await startReceiver();
    try {
      await esign(['local', 'account', 'set', '--allow-private-urls']);
      const hook = await esign(['webhook', 'create', '--name', 'rx', '--url', rx.url, '--events', 'bundle_sent', '-q']);
      const event = (await esign(['webhook', 'trigger', 'bundle_sent', '-q'])).stdout.split('\n')[0]!;
      const ok = await esign(['webhook', 'resend', event]);
      expect(ok.exitCode, ok.stderr).toBe(0);
      expect(ok.stdout).toMatch(/attempt 2\t\S+ HTTP 200: ok$/m);
      expect(ok.stdout).not.toContain('HTTP 200 HTTP 200');
      await esign(['webhook', 'update', hook.stdout, '--url', 'http://127.0.0.1:9/closed']);
      const failed = await esign(['webhook', 'resend', event]);
      expect(failed.exitCode).toBe(1);
      expect(failed.stderr).toMatch(/^esign: Event \S+ was not delivered: no answer: /);
    } finally {
      await rx.close();
    }
  });

  it('answering No to a confirmation says nothing was changed, never "Cancelled"', async () => {
    const slug = (await esign(['bundle', 'create', ...signer, '-q'])).stdout;
    const r = await esignIn(['bundle', 'cancel', slug], { env, answers: { confirm: [false] } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('esign: Not confirmed: nothing was changed.');
    expect(JSON.parse((await esign(['bundle', 'get', slug, '--json'])).stdout).status).toBe('se');
  });

  it("keeps a failure's exit code when the reader has closed the pipe (esign api ... | true)", async () => {
    const r = await execa(
      'bash',
      ['-c', `node "${BIN}" api GET /bundles/ -F per_page=abc | true; echo "exit \${PIPESTATUS[0]}" >&2`],
      {
        env: { ...env, NO_COLOR: '1' },
        reject: false,
      },
    );
    expect(r.stderr.split('\n').at(-1)).toBe('exit 3');
  });
});

describe('one table of exit codes', () => {
  it('is what esign help exit-codes prints and what the README lists, 130 included', async () => {
    const printed = (await esign(['help', 'exit-codes'])).stdout.split('\n').map((l) => {
      const m = /^\s*(\d+) {2}(.*)$/.exec(l)!;
      return [Number(m[1]), m[2]];
    });
    expect(printed).toEqual(EXIT_TABLE);
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Exit codes'),
      readme.indexOf('\n## ', readme.indexOf('## Exit codes') + 1),
    );
    const rows = [...section.matchAll(/^\| (\d+) \| (.*) \|$/gm)].map((m) => [Number(m[1]), m[2]!.replace(/`/g, '')]);
    expect(rows).toEqual(EXIT_TABLE);
    expect(rows.map(([c]) => c)).toContain(130);
  });
});

describe('the same codes on a remote backend (a real esign serve on 127.0.0.1)', () => {
  it('bundle send on a sent Bundle exits 7, a bad flag value exits 2, a failed resend exits 1', async () => {
    const { startServe } = await import('./serveProcess.js');
    const served = join(data.dir, 'served');
    const key = JSON.parse(
      (await esignIn(['local', 'keys', 'create', '--json'], { env: { ESIGN_DATA_DIR: served } })).stdout,
    ).key as string;
    const serve = await startServe({ ESIGN_DATA_DIR: served, NO_COLOR: '1' }, ['--allow-private-urls']);
    try {
      const remote = {
        ESIGN_BASE_URL: `${serve.address}/api/v2`,
        ESIGN_API_KEY: key,
        ESIGN_DATA_DIR: join(data.dir, 'unused'),
      };
      const created = await esign(
        [
          'bundle',
          'create',
          '--file',
          fixture('contract.pdf'),
          '--signer',
          'Owner <owner@example.com>',
          '--test',
          '-q',
        ],
        { env: remote },
      );
      expect(created.exitCode, created.stderr).toBe(0);
      const sent = await esign(['bundle', 'send', created.stdout], { env: remote });
      expect(sent.exitCode, sent.stderr).toBe(7);
      expect((await esign(['bundle', 'cancel', created.stdout, '--yes', '-q'], { env: remote })).exitCode).toBe(0);
      const updated = await esign(['bundle', 'update', created.stdout, '--reminder-interval', '3'], { env: remote });
      expect(updated.exitCode, updated.stderr).toBe(7);
      expect((await esign(['bundle', 'list', '--created-after', 'yesterday'], { env: remote })).exitCode).toBe(2);
      await esign(
        ['webhook', 'create', '--name', 'dead', '--url', 'http://127.0.0.1:9/closed', '--events', 'bundle_sent'],
        { env: remote },
      );
      const event = (await esign(['webhook', 'trigger', 'bundle_sent', '-q'], { env: remote })).stdout.split('\n')[0]!;
      const resent = await esign(['webhook', 'resend', event], { env: remote });
      expect(resent.exitCode, resent.stderr).toBe(1);
      expect(resent.stderr).toMatch(/^esign: Event \S+ was not delivered: /);
    } finally {
      serve.process.kill('SIGTERM');
      await serve.process;
    }
  }, 60_000);
});
