// The support console over HTTP on 127.0.0.1: sign-in (one-time URL, API key), sessions and their
// cookie, CSRF, read-only, hostile Bundle strings, find, the Bundle page, files, verify, the live stream.
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { type ConsoleHandle, registerConsole } from '../../src/server/console/index.js';
import { DEFAULT_LIVE, pollPaceMs } from '../../src/server/console/live.js';
import type { EsignService } from '../../src/service/service.js';
import { esignIn } from '../cli/inProcess.js';
import { CONTRACT_PDF, bundleRequest, newEngine } from '../helpers.js';

const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
const HOSTILE_FILE = `<img src=x onerror=alert(2)>.pdf`;

let engine: ReturnType<typeof newEngine>;
let clock = 1_000_000;
let app: FastifyInstance;
let base: string;
let handle: ConsoleHandle;
let roApp: FastifyInstance;
let roBase: string;
let roHandle: ConsoleHandle;

async function consoleApp(readOnly: boolean): Promise<[FastifyInstance, string, ConsoleHandle]> {
  const a = Fastify();
  const h = await registerConsole(a, {
    service: engine,
    readOnly,
    backend: 'the local engine',
    timing: { now: () => clock, sessionTtlMs: 60_000 },
  });
  return [a, await a.listen({ host: '127.0.0.1', port: 0 }), h];
}

beforeAll(async () => {
  engine = newEngine();
  [app, base, handle] = await consoleApp(false);
  [roApp, roBase, roHandle] = await consoleApp(true);
});
afterAll(async () => {
  await app?.close();
  await roApp?.close();
  await engine?.dispose();
});

/** Signs in through a one-time URL; returns the session cookie. */
async function signIn(b = base, h = handle): Promise<string> {
  const res = await fetch(`${b}${h.signInPath()}`, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return res.headers.get('set-cookie')!.split(';')[0];
}
const get = (path: string, cookie: string, b = base) =>
  fetch(`${b}${path}`, { headers: { cookie }, redirect: 'manual' });
const csrfOf = (html: string) => /name="csrf-token" content="([^"]+)"/.exec(html)![1];
const post = (
  path: string,
  cookie: string,
  form: Record<string, string>,
  b = base,
  headers: Record<string, string> = {},
) =>
  fetch(`${b}${path}`, {
    method: 'POST',
    body: new URLSearchParams(form),
    headers: { cookie, ...headers },
    redirect: 'manual',
  });

async function sentBundle(over: Record<string, unknown> = {}) {
  const b = await engine.createBundle(bundleRequest(over));
  await engine.settle();
  return engine.getBundle(b.id);
}

describe('signing in', () => {
  it('a one-time URL works once; the session cookie is HttpOnly, SameSite=Strict, scoped and expiring', async () => {
    const path = handle.signInPath();
    const first = await fetch(`${base}${path}`, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const setCookie = first.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\/console/);
    expect(setCookie).toMatch(/Max-Age=60/);
    const again = await fetch(`${base}${path}`, { redirect: 'manual' });
    expect(again.status).toBe(403);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toMatch(/has been used or has expired/);
  });

  it('without a session a page leads to sign-in and a POST is refused; the session ends at its expiry', async () => {
    expect((await get('/console/', '')).headers.get('location')).toBe('/console/login');
    expect((await post('/console/verify', '', { hash: 'a'.repeat(64) })).status).toBe(401);
    const cookie = await signIn();
    expect((await get('/console/', cookie)).status).toBe(200);
    clock += 60_001;
    expect((await get('/console/', cookie)).status).toBe(303);
  });

  it('a token not used within its time is refused', async () => {
    const path = handle.signInPath();
    clock += 16 * 60_000;
    expect((await fetch(`${base}${path}`, { redirect: 'manual' })).status).toBe(403);
  });

  it('sign-out ends the session', async () => {
    const cookie = await signIn();
    const csrf = csrfOf(await (await get('/console/', cookie)).text());
    const out = await post('/console/logout', cookie, { csrf });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect((await get('/console/', cookie)).status).toBe(303);
  });

  it('esign serve mounts the console: an API key signs in, a wrong one does not', async () => {
    const server = await buildServer({
      service: engine,
      local: engine,
      authenticate: (k) => engine.keys.authenticate(k),
      console: {},
    });
    const url = await server.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { key } = engine.keys.create('console test');
      const bad = await post('/console/login', '', { key: 'nope' }, url);
      expect(bad.status).toBe(401);
      const good = await post('/console/login', '', { key }, url);
      expect(good.status).toBe(303);
      const cookie = good.headers.get('set-cookie')!.split(';')[0];
      expect((await get('/console/', cookie, url)).status).toBe(200);
      // The API is untouched by the console's routes.
      expect((await fetch(`${url}/api/v2/bundles/`)).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe('the Host it answers', () => {
  it('a console bound to its own Host answers 421 to another name (DNS rebinding)', async () => {
    const a = Fastify();
    let origin = '';
    const h = await registerConsole(a, { service: engine, allowedHost: (host) => host === new URL(origin).host });
    origin = await a.listen({ host: '127.0.0.1', port: 0 });
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${origin}${h.signInPath()}`, { headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject).end();
      });
    try {
      expect(await status(`rebind.example:${new URL(origin).port}`)).toBe(421);
      expect(await status(new URL(origin).host)).toBe(303);
    } finally {
      await a.close();
    }
  });
});

describe('changes', () => {
  it("a POST without the session's CSRF token, or from another origin, changes nothing", async () => {
    const b = await sentBundle();
    const cookie = await signIn();
    const csrf = csrfOf(await (await get('/console/', cookie)).text());
    const cancel = `/console/bundles/${b.id}/cancel`;
    expect((await post(cancel, cookie, {})).status).toBe(403);
    expect((await post(cancel, cookie, { csrf: 'x'.repeat(43) })).status).toBe(403);
    expect((await post(cancel, cookie, { csrf }, base, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await engine.getBundle(b.id)).status).toBe(b.status);
    const ok = await post(cancel, cookie, { csrf }, base, { origin: base });
    expect(ok.status).toBe(303);
    expect((await engine.getBundle(b.id)).status).toBe('ca');
  });

  it('read-only refuses every change and offers none', async () => {
    const b = await sentBundle();
    const cookie = await signIn(roBase, roHandle);
    const html = await (await get(`/console/bundles/${b.id}`, cookie, roBase)).text();
    expect(html).not.toMatch(/Cancel this Bundle|Remind /);
    const csrf = csrfOf(html);
    const refused = await post(`/console/bundles/${b.id}/cancel`, cookie, { csrf }, roBase);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/read-only/);
    const remind = await post(`/console/bundles/${b.id}/packets/${b.packets[0].id}/remind`, cookie, { csrf }, roBase);
    expect(remind.status).toBe(403);
    expect((await engine.getBundle(b.id)).status).toBe(b.status);
    // Looking is allowed, and so is verify (it changes nothing).
    expect((await post('/console/verify', cookie, { csrf, hash: 'a'.repeat(64) }, roBase)).status).toBe(200);
  });

  it('a reminder goes to the signer of that Bundle only', async () => {
    const a = await sentBundle();
    const other = await sentBundle();
    const cookie = await signIn();
    const csrf = csrfOf(await (await get('/console/', cookie)).text());
    // The confirmation says where the message goes (the operations table: remindPacket reaches people).
    const confirm = await (await get(`/console/bundles/${a.id}/packets/${a.packets[0].id}/remind`, cookie)).text();
    expect(confirm).toMatch(/Send Ada Lovelace a reminder now, by email to ada@example.com\? It goes to the outbox\./);
    const wrong = await post(`/console/bundles/${a.id}/packets/${other.packets[0].id}/remind`, cookie, { csrf });
    expect(wrong.status).toBe(404);
    const ok = await post(`/console/bundles/${a.id}/packets/${a.packets[0].id}/remind`, cookie, { csrf });
    expect(ok.headers.get('location')).toBe(`/console/bundles/${a.id}`);
    // The Bundle's page says what happened, once.
    const after = await (await get(`/console/bundles/${a.id}`, cookie)).text();
    expect(after).toContain('A reminder went to Ada Lovelace by email to ada@example.com.');
    expect(await (await get(`/console/bundles/${a.id}`, cookie)).text()).not.toContain('A reminder went to');
    const reminders = engine.outbox({ bundle: a.id }).filter((m) => m.kind === 'reminder');
    expect(reminders.map((m) => m.recipient)).toEqual([a.packets[0].email]);
    expect(engine.outbox({ bundle: other.id }).filter((m) => m.kind === 'reminder')).toEqual([]);
  });
});

describe('pages', () => {
  it('every Bundle string is text: no markup from a label, a name, a field value or a file name reaches the page', async () => {
    const b = await sentBundle({
      label: HOSTILE,
      custom_key: `ck-${HOSTILE}`.slice(0, 60),
      packets: [{ key: 'ada', name: HOSTILE, email: 'hostile@example.com' }],
      documents: [{ key: 'contract', file_b64: CONTRACT_PDF.toString('base64'), filename: HOSTILE_FILE }],
    });
    const cookie = await signIn();
    for (const path of [`/console/bundles/${b.id}`, `/console/?q=hostile%40example.com`, '/console/outbox']) {
      const res = await get(path, cookie);
      expect(res.status).toBe(200);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toMatch(/script-src 'self'/);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      const html = await res.text();
      expect(html).not.toContain('<script>alert');
      expect(html).not.toContain('<img src=x');
      expect(html).toContain('&lt;script>alert');
      // The only scripts are the console's own module.
      expect(html.match(/<script/g)).toHaveLength(1);
    }
  });

  it("find: by a signer's email with a count; a packet id leads to its Bundle; a status filter narrows", async () => {
    const b = await sentBundle({ packets: [{ key: 'z', name: 'Zed Finder', email: 'zed.finder@example.com' }] });
    const cookie = await signIn();
    const html = await (await get('/console/?q=zed.finder%40example.com', cookie)).text();
    expect(html).toMatch(/1 Bundle found/);
    expect(html).toContain(`/console/bundles/${b.id}`);
    const byPacket = await get(`/console/?q=${b.packets[0].id}`, cookie);
    expect(byPacket.status).toBe(303);
    expect(byPacket.headers.get('location')).toBe(`/console/bundles/${b.id}`);
    const none = await (await get('/console/?q=zed.finder%40example.com&status=co', cookie)).text();
    expect(none).toMatch(/0 Bundles found/);
    // Out-of-range input is dropped, never passed on.
    expect((await get('/console/?page=-4&status=zz&after=yesterday&dates=__proto__', cookie)).status).toBe(200);
    // A date range applies to the dates chosen: sent today finds it, completed today does not.
    const today = new Date().toISOString().slice(0, 10);
    const sent = await (await get(`/console/?q=zed.finder%40example.com&dates=sent&after=${today}`, cookie)).text();
    expect(sent).toMatch(/1 Bundle found/);
    const completed = await (
      await get(`/console/?q=zed.finder%40example.com&dates=completed&after=${today}`, cookie)
    ).text();
    expect(completed).toMatch(/0 Bundles found/);
  });

  it('the Bundle page: state in words, signers, timeline, messages, files with their SHA-256 and a download', async () => {
    const b = await sentBundle({ label: 'Story of a lease' });
    await engine.signPacket(b.packets[0].id, {});
    await engine.signPacket(b.packets[1].id, {});
    await engine.settle();
    const cookie = await signIn();
    const res = await get(`/console/bundles/${b.id}`, cookie);
    expect(res.headers.get('server-timing')).toMatch(/page;dur=/);
    const html = await res.text();
    expect(html).toMatch(/Story of a lease/);
    expect(html).toMatch(/data-code="co">Complete</);
    expect(html).toContain('Ada Lovelace');
    expect(html).toMatch(/Open the documents/);
    // The timeline reads clock times (every step of this busy second would be "just now"), and a
    // document is named, never with a code or "None" before it.
    const timeline = html.slice(html.indexOf('Timeline'));
    expect(timeline).toMatch(/<time[^>]*>(\d{4}-\d\d-\d\d |[A-Z][a-z]{2} \d\d )?\d\d:\d\d:\d\d<\/time>/);
    expect(timeline.slice(0, 2000)).not.toContain('just now');
    expect(html).not.toMatch(/None:/);
    expect(html).toMatch(/contract\.pdf(<!-- -->)?<span class="hint"> · signed files: Final<\/span>/);
    const files = await engine.getBundleFiles(b.id);
    expect(files.length).toBeGreaterThan(0);
    expect(html).toContain(files[0].sha256!);
    const pdf = await get(`/console/bundles/${b.id}/files/0`, cookie);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(files[0].sha256);
    expect((await get(`/console/bundles/${b.id}/files/99`, cookie)).status).toBe(404);
    expect(html).toContain(`esign bundle inspect ${b.id}`);
  });

  it('a Declined or Cancelled Bundle says it will have no signed files, in its header too', async () => {
    const cookie = await signIn();
    const declined = await sentBundle({ label: 'Declined lease' });
    await engine.declinePacket(declined.packets[0].id, 'wrong name');
    const cancelled = await sentBundle({ label: 'Cancelled lease' });
    await engine.cancelBundle(cancelled.id);
    for (const [b, word] of [
      [declined, 'Declined'],
      [cancelled, 'Cancelled'],
    ] as const) {
      const html = await (await get(`/console/bundles/${b.id}`, cookie)).text();
      expect(html).toMatch(new RegExp(`<span class="hint"> · signed files: Will not be made \\(${word}\\)</span>`));
      expect(html).not.toContain('Not yet made');
    }
  });

  it("downloads all of a Bundle's files as one zip, each entry the file itself under its name", async () => {
    const b = await sentBundle({ label: 'Zip of a lease' });
    await engine.signPacket(b.packets[0].id, {});
    await engine.signPacket(b.packets[1].id, {});
    await engine.settle();
    const files = await engine.getBundleFiles(b.id);
    expect(files.map((f) => f.kind)).toEqual(expect.arrayContaining(['signed_pdf', 'combined_pdf', 'coe_pdf']));
    const cookie = await signIn();
    const html = await (await get(`/console/bundles/${b.id}`, cookie)).text();
    expect(html).toContain(`href="/console/bundles/${b.id}/files.zip"`);
    expect(html).toContain(`Download all ${files.length} files (zip)`);
    const res = await get(`/console/bundles/${b.id}/files.zip`, cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${b.id}-files.zip"`);
    // Read back by a zip reader of its own (yauzl): every file, whole, under its name.
    const zip = await new Promise<yauzl.ZipFile>((ok, fail) =>
      res
        .arrayBuffer()
        .then((a) => yauzl.fromBuffer(Buffer.from(a), { lazyEntries: true }, (e, z) => (e ? fail(e) : ok(z)))),
    );
    const entries: { name: string; sha256: string }[] = [];
    await new Promise<void>((ok, fail) => {
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (e, stream) => {
          if (e) return fail(e);
          const h = createHash('sha256');
          stream.on('data', (d: Buffer) => h.update(d));
          stream.on('end', () => {
            entries.push({ name: entry.fileName, sha256: h.digest('hex') });
            zip.readEntry();
          });
        }),
      );
      zip.on('end', ok);
      zip.on('error', fail);
      zip.readEntry();
    });
    expect(entries).toEqual(files.map((f) => ({ name: f.name, sha256: f.sha256 })));
    expect((await get('/console/bundles/NoSuchOne/files.zip', cookie)).status).toBe(404);
  });

  it('verify answers match and no match from the hash alone', async () => {
    const b = await sentBundle();
    await engine.signPacket(b.packets[0].id, {});
    await engine.signPacket(b.packets[1].id, {});
    await engine.settle();
    const signed = (await engine.getBundleFiles(b.id)).find((f) => f.kind === 'signed_pdf')!;
    const cookie = await signIn();
    const csrf = csrfOf(await (await get('/console/verify', cookie)).text());
    const match = await (await post('/console/verify', cookie, { csrf, hash: signed.sha256! })).text();
    expect(match).toMatch(/data-status="match"/);
    const none = await (await post('/console/verify', cookie, { csrf, hash: 'b'.repeat(64) })).text();
    expect(none).toMatch(/data-status="no_match"/);
    const bad = await post('/console/verify', cookie, { csrf, hash: 'not a hash' });
    expect(bad.status).toBe(400);
  });

  it('the live stream says "change" when another writer changes the Bundle', async () => {
    const b = await sentBundle();
    const cookie = await signIn();
    const ac = new AbortController();
    const res = await fetch(`${base}/console/bundles/${b.id}/live`, { headers: { cookie }, signal: ac.signal });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    const seen = (async () => {
      let text = '';
      while (!text.includes('event: change')) text += new TextDecoder().decode((await reader.read()).value);
      return text;
    })();
    await engine.viewPacket(b.packets[0].id);
    expect(await seen).toMatch(/event: change/);
    ac.abort();
  });

  it('tells of a change made while the stream reads what it starts from', async () => {
    const b = await sentBundle();
    // The change lands between the stream's first read of the Bundle and the rest of it (a signer
    // opening the link as the page's stream opens, on a loaded machine).
    let during: (() => Promise<unknown>) | undefined = () => engine.viewPacket(b.packets[0].id);
    const racing = new Proxy(engine, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (key !== 'getBundle') return typeof value === 'function' ? value.bind(target) : value;
        return async (slug: string) => {
          const read = await target.getBundle(slug);
          const write = during;
          during = undefined;
          await write?.();
          return read;
        };
      },
    });
    const a = Fastify();
    const h = await registerConsole(a, { service: racing, readOnly: true, backend: 'the local engine' });
    const url = await a.listen({ host: '127.0.0.1', port: 0 });
    const ac = new AbortController();
    try {
      const res = await fetch(`${url}/console/bundles/${b.id}/live`, {
        headers: { cookie: await signIn(url, h) },
        signal: ac.signal,
      });
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes('event: change')) text += new TextDecoder().decode((await reader.read()).value);
      expect(during).toBeUndefined();
    } finally {
      ac.abort();
      await a.close();
    }
  });

  it('tells a page at once of a change made before its stream opened, and a current page of none', async () => {
    const b = await sentBundle();
    const cookie = await signIn();
    const liveOf = async () =>
      /data-live="([^"]+)"/
        .exec(await (await get(`/console/bundles/${b.id}`, cookie)).text())![1]!
        .replace(/&amp;/g, '&');
    /** What the stream sends first: its opening and, in the same write, a change to tell at once. */
    const opening = async (url: string) => {
      const ac = new AbortController();
      const res = await fetch(`${base}${url}`, { headers: { cookie }, signal: ac.signal });
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes(': watching')) text += new TextDecoder().decode((await reader.read()).value);
      ac.abort();
      return text;
    };
    const before = await liveOf();
    expect(before).toMatch(/\/live\?seen=[\w-]{22}$/);
    // A signer opens the link between the page's making and its stream's opening (a loaded machine).
    await engine.viewPacket(b.packets[0].id);
    expect(await opening(before)).toMatch(/event: change/);
    const after = await liveOf();
    expect(after).not.toBe(before);
    expect(await opening(after)).not.toMatch(/event: change/);
    // Without a digest (an older page), the stream tells only what changes from its opening on.
    expect(await opening(`/console/bundles/${b.id}/live`)).not.toMatch(/event: change/);
  });
});

describe('live pacing and closing', () => {
  it('a backend without a change watch is checked at most at a tenth of its rate limit, never faster than the minimum', async () => {
    const limited = (limit: number, window: number) =>
      ({ getRateLimit: async () => ({ limit, remaining: limit, reset: 0, window }) }) as unknown as EsignService;
    // 2 requests a check, 10% of 2000 an hour: one check every 36 s.
    expect(await pollPaceMs(limited(2000, 3600), DEFAULT_LIVE)).toBe(36_000);
    expect(await pollPaceMs(limited(1_000_000, 3600), { ...DEFAULT_LIVE, minPollMs: 1000 })).toBe(1000);
    const failing = { getRateLimit: async () => Promise.reject(new Error('no')) } as unknown as EsignService;
    expect(await pollPaceMs(failing, DEFAULT_LIVE)).toBe(DEFAULT_LIVE.minPollMs);
  });

  it('closing the server ends open live streams instead of waiting for them', async () => {
    const [a, url, h] = await consoleApp(false);
    const b = await sentBundle();
    const cookie = await signIn(url, h);
    const res = await fetch(`${url}/console/bundles/${b.id}/live`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const ended = res.text();
    const closed = await Promise.race([
      a.close().then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('hung'), 5000)),
    ]);
    expect(closed).toBe('closed');
    await ended;
  });
});

describe('esign console (the verb)', () => {
  it('a bad flag is one esign: line and the usage exit code', async () => {
    const r = await esignIn(['console', '--port', '70000'], { env: { ESIGN_DATA_DIR: engine.dataDir } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^esign: --port 70000: out of range\.$/m);
    const h = await esignIn(['console', '--session-hours', 'soon'], { env: { ESIGN_DATA_DIR: engine.dataDir } });
    expect(h.exitCode).toBe(2);
    expect(h.stderr).toMatch(/^esign: .*--session-hours/m);
  });
});
