// The console's outbox: a dense table, filtered by recipient, Bundle and kind as `esign local outbox`
// filters (the same engine query); read raw over HTTP with a session cookie, compared with the CLI.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHandle, registerConsole } from '../../src/server/console/index.js';
import { esignIn } from '../cli/inProcess.js';
import { localEnv } from '../engineServer.js';
import { bundleRequest, newEngine } from '../helpers.js';

let engine: ReturnType<typeof newEngine>;
let app: FastifyInstance;
let base: string;
let handle: ConsoleHandle;
let cookie = '';
let first = '';
let second = '';

beforeAll(async () => {
  engine = newEngine();
  const a = await engine.createBundle(bundleRequest({ label: 'First' }));
  const b = await engine.createBundle(bundleRequest({ label: 'Second' }));
  [first, second] = [a.id, b.id];
  engine.clock.advance(2 * 3600_000);
  await engine.remindPacket(a.packets[0]!.id);
  await engine.remindPacket(b.packets[0]!.id);
  await engine.remindPacket(b.packets[1]!.id);
  app = Fastify();
  handle = await registerConsole(app, { service: engine, readOnly: true, backend: 'the local engine' });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  cookie = (await fetch(`${base}${handle.signInPath()}`, { redirect: 'manual' })).headers
    .get('set-cookie')!
    .split(';')[0]!;
}, 60_000);
afterAll(async () => {
  await app?.close();
  await engine?.dispose();
});

/** The console's rows for a query string: [kind, recipient, Bundle], newest first, and its heading. */
async function consoleRows(query: string) {
  const res = await fetch(`${base}/console/outbox${query}`, { headers: { cookie } });
  expect(res.status).toBe(200);
  const html = await res.text();
  const table = /<table class="list outbox">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  const rows = [...table.matchAll(/<tr><td>[\s\S]*?<\/tr>/g)].map((m) => {
    const cells = [...m[0].matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => c[1]!);
    const kind = /^([a-z ]+) </.exec(cells[1]!)![1]!.replace(/ /g, '_');
    const bundle = /<code[^>]*>([^<]+)<\/code>/.exec(cells[4]!)?.[1] ?? null;
    return [kind, cells[2], bundle];
  });
  return {
    rows,
    heading: /<h2 id="outbox-h">([^<]*(?:<!-- -->[^<]*)*)<\/h2>/.exec(html)![1]!.replace(/<!-- -->/g, ''),
  };
}

/** The same filters through `esign local outbox --json`, newest first. */
async function cliRows(args: string[]) {
  const r = await esignIn(['local', 'outbox', ...args, '--json'], { env: localEnv(engine.dataDir) });
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { kind: string; recipient: string; bundle_id: string }[])
    .map((m) => [m.kind, m.recipient, m.bundle_id])
    .reverse();
}

describe("the console's outbox filter", () => {
  it.each([
    ['every message', '', []],
    ['by recipient, any case', '?to=BOB%40example.com', ['--to', 'BOB@example.com']],
    ['by kind', '?kind=reminder', ['--kind', 'reminder']],
    ['by Bundle and kind', () => `?bundle=${second}&kind=reminder`, () => ['--bundle', second, '--kind', 'reminder']],
    [
      'by recipient and Bundle',
      () => `?to=ada%40example.com&bundle=${first}`,
      () => ['--to', 'ada@example.com', '--bundle', first],
    ],
  ] as [string, string | (() => string), string[] | (() => string[])][])(
    '%s: as the CLI finds',
    async (_what, q, args) => {
      const query = typeof q === 'function' ? q() : q;
      const cli = await cliRows(typeof args === 'function' ? args() : args);
      const shown = await consoleRows(query);
      expect(cli.length).toBeGreaterThan(0);
      expect(shown.rows).toEqual(cli);
      expect(shown.heading).toMatch(new RegExp(`^${cli.length} messages?${query ? ' found' : ''}, newest first$`));
    },
  );

  it('keeps its filters across pages, says when none match, and drops a kind it does not know', async () => {
    expect((await consoleRows('?to=nobody%40example.com')).rows).toEqual([]);
    const none = await (await fetch(`${base}/console/outbox?to=nobody%40example.com`, { headers: { cookie } })).text();
    expect(none).toContain('No message matches.');
    const bogus = await consoleRows('?kind=%3Cscript%3E');
    expect(bogus.rows).toEqual(await cliRows([]));
    const long = await fetch(`${base}/console/outbox?to=${'a'.repeat(100_000)}`, { headers: { cookie } });
    expect([200, 414, 431]).toContain(long.status);
  });
});

describe('a recipient with a typo in it', () => {
  it('finds nothing, and both outboxes name the addresses messages went to a typo away, linked in the console', async () => {
    const b = await engine.createBundle(
      bundleRequest({ packets: [{ key: 'm', name: 'Marta López', email: 'marta.lopez@exmaple.com' }] }),
    );
    const asked = 'Marta.Lopez@example.com';
    const cli = await esignIn(['local', 'outbox', '--to', asked], { env: localEnv(engine.dataDir) });
    expect(cli.exitCode).toBe(0);
    expect(cli.stdout).toBe('');
    expect(cli.stderr).toContain(
      `No message to ${asked}. Messages went to a similar address: marta.lopez@exmaple.com.`,
    );
    const html = await (
      await fetch(`${base}/console/outbox?to=${encodeURIComponent(asked)}&bundle=${b.id}`, { headers: { cookie } })
    ).text();
    expect(html).toContain('No message matches.');
    expect(html.replace(/<!-- -->/g, '')).toContain(
      `No message to ${asked}. Messages went to a similar address: <a href="/console/outbox?to=marta.lopez%40exmaple.com&amp;bundle=${b.id}">marta.lopez@exmaple.com</a>.`,
    );
    // The link finds the messages.
    expect((await consoleRows(`?to=marta.lopez%40exmaple.com&bundle=${b.id}`)).rows).toEqual([
      ['signing_request', 'marta.lopez@exmaple.com', b.id],
    ]);
    // Nothing near: nothing said but that none matched.
    const far = await esignIn(['local', 'outbox', '--to', 'someone.else@example.org'], {
      env: localEnv(engine.dataDir),
    });
    expect(far.stderr).not.toContain('similar');
  });
});

describe("the terminal's outbox at 80 columns", () => {
  it('never cuts an address or a Bundle id: a long one goes whole on a line under its row', async () => {
    const long = 'marc-andre.dupont@northwind-legal-and-partners.example.com';
    const b = await engine.createBundle(bundleRequest({ packets: [{ key: 'm', name: 'Marc-André', email: long }] }));
    const r = await esignIn(['local', 'outbox', '--limit', '5'], {
      env: localEnv(engine.dataDir),
      tty: true,
      columns: 80,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    for (const l of lines) expect([...l].length, l).toBeLessThanOrEqual(80);
    expect(lines).toContain(`    to: ${long}`);
    expect(r.stdout).toContain(b.id);
    expect(r.stdout).not.toMatch(/northwind[^\n]*…/);
  });
});
