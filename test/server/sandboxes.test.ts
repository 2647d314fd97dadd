// Sandboxes of one esign serve, read raw as a stranger's client would: made, listed and deleted with
// the server's own key at /sandboxes/, each an API v2 server of its own at /sandboxes/{id}/api/v2
// with its own key, and nothing of one visible from another (Bundles, persons, webhooks, outbox,
// clock, rate limit). Limits: how many at once, a life, a disk; expired ones go by themselves.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import type { SandboxHosting } from '../../src/server/app.js';
import { serveEngine } from '../engineServer.js';
import { bundleRequest, hookRequest, newEngine, tempDir } from '../helpers.js';
import { raw } from '../rawHttp.js';
import { type WireResponse, wireProblems as problemsAt } from '../wireCheck.js';

/** What is wrong with an answer of a sandbox, held to the table as the same path without its prefix. */
const wireProblems = (r: WireResponse) =>
  problemsAt({ ...r, url: r.url.replace(/^\/sandboxes\/sbx_[0-9a-f]{20}(?=\/)/, '') });

interface Made {
  id: string;
  name: string;
  api_key: string;
  base_url: string;
  created_at: string;
  expires_at: string;
  created_by: string;
  size_bytes: number;
  max_bytes: number;
}

const RATE = 40;

async function hostWith(sandboxes: Partial<SandboxHosting>, dir: string) {
  const engine = newEngine();
  const served = await serveEngine(engine, {
    rateLimits: { limit: RATE, createLimit: RATE, windowSeconds: 3600 },
    sandboxes: {
      dir,
      openEngine: async (dataDir) => new LocalEngine({ dataDir, guardUrls: true, loopbackUrls: true }),
      ...sandboxes,
    },
  });
  return {
    ...served,
    async stop() {
      await served.close();
      await engine.dispose();
    },
  };
}

const post = (origin: string, path: string, key: string, body: unknown) =>
  raw(origin, path, {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The path of `base_url` on the server (`/sandboxes/sbx_.../api/v2`). */
const pathOf = (s: Made) => new URL(s.base_url).pathname;
const rootOf = (s: Made) => pathOf(s).replace(/\/api\/v2$/, '');

describe('sandboxes of one esign serve', () => {
  const dirs = tempDir('esign-sandboxes-');
  let host: Awaited<ReturnType<typeof hostWith>>;
  let a: Made;
  let b: Made;

  beforeAll(async () => {
    host = await hostWith({}, join(dirs.dir, 'sandboxes'));
    const started = performance.now();
    const ra = await post(host.origin, '/sandboxes/', host.key, { name: 'job a', ttl_seconds: 600 });
    console.log(`sandbox created in ${(performance.now() - started).toFixed(0)} ms`);
    expect(ra.status, ra.text).toBe(201);
    a = ra.json() as Made;
    const rb = await post(host.origin, '/sandboxes/', host.key, { name: 'job b' });
    expect(rb.status, rb.text).toBe(201);
    b = rb.json() as Made;
  });
  afterAll(async () => {
    await host.stop();
    dirs.cleanup();
  });

  it('answers a sandbox with its own key and a base URL under the server', () => {
    expect(a.id).toMatch(/^sbx_[0-9a-f]{20}$/);
    expect(a.base_url).toBe(`${host.origin}/sandboxes/${a.id}/api/v2`);
    expect(a.name).toBe('job a');
    expect(Date.parse(a.expires_at) - Date.parse(a.created_at)).toBe(600_000);
    expect(Date.parse(b.expires_at) - Date.parse(b.created_at)).toBe(3_600_000);
    expect(a.api_key).not.toBe(host.key);
    expect(a.api_key).not.toBe(b.api_key);
    expect(existsSync(join(dirs.dir, 'sandboxes', a.id, 'data'))).toBe(true);
  });

  it('lists and reads sandboxes with the server key, never showing a key again', async () => {
    const list = await raw(host.origin, '/sandboxes/', { key: host.key });
    expect(list.status).toBe(200);
    const items = list.json() as Made[];
    expect(items.map((s) => s.id).sort()).toEqual([a.id, b.id].sort());
    expect(list.text).not.toContain(a.api_key);
    const one = await raw(host.origin, `/sandboxes/${a.id}/`, { key: host.key });
    expect(one.status).toBe(200);
    expect((one.json() as Made).base_url).toBe(a.base_url);
    expect(one.text).not.toContain(a.api_key);
  });

  it('lets only the server key manage sandboxes, and refuses bad input with the Error object', async () => {
    for (const r of [
      await raw(host.origin, '/sandboxes/'),
      await raw(host.origin, '/sandboxes/', { key: a.api_key }),
      await post(host.origin, '/sandboxes/', a.api_key, {}),
      await raw(host.origin, `/sandboxes/${b.id}/`, { key: a.api_key, method: 'DELETE' }),
    ]) {
      expect(r.status).toBe(401);
      expect(wireProblems(r)).toEqual([]);
    }
    const ttl = await post(host.origin, '/sandboxes/', host.key, { ttl_seconds: 0 });
    expect(ttl.status).toBe(400);
    expect(wireProblems(ttl)).toEqual([]);
    expect((ttl.json() as { errors: { field: string }[] }).errors[0]!.field).toBe('ttl_seconds');
    const longer = await post(host.origin, '/sandboxes/', host.key, { ttl_seconds: 24 * 3600 + 1 });
    expect(longer.status).toBe(400);
    const unknown = await post(host.origin, '/sandboxes/', host.key, { ttl: 5 });
    expect(unknown.status).toBe(400);
    expect((unknown.json() as { errors: { field: string }[] }).errors[0]!.field).toBe('ttl');
    const missing = await raw(host.origin, '/sandboxes/sbx_00000000000000000000/api/v2/bundles/', { key: a.api_key });
    expect(missing.status).toBe(404);
    expect(wireProblems(missing)).toEqual([]);
    const odd = await raw(host.origin, '/sandboxes/..%2f..%2fetc/api/v2/bundles/', { key: a.api_key });
    expect(odd.status).toBe(404);
  });

  it('lets a key reach only its own sandbox', async () => {
    const inA = `${pathOf(a)}/bundles/`;
    expect((await raw(host.origin, inA, { key: a.api_key })).status).toBe(200);
    for (const key of [b.api_key, host.key]) {
      const r = await raw(host.origin, inA, { key });
      expect(r.status).toBe(401);
      expect(wireProblems(r)).toEqual([]);
    }
    // A sandbox's key is nothing to the server itself.
    expect((await raw(host.origin, '/api/v2/bundles/', { key: a.api_key })).status).toBe(401);
  });

  it('keeps Bundles, persons, webhooks and the outbox of one out of the other', async () => {
    const made = await post(host.origin, `${pathOf(a)}/bundles/`, a.api_key, bundleRequest({ label: 'only in a' }));
    expect(made.status, made.text).toBe(201);
    expect(wireProblems(made)).toEqual([]);
    const slug = (made.json() as { id: string }).id;
    const person = await post(host.origin, `${pathOf(a)}/persons/`, a.api_key, { name: 'Ada in A' });
    expect(person.status, person.text).toBe(201);
    const hook = await post(host.origin, `${pathOf(a)}/webhooks/`, a.api_key, hookRequest());
    expect(hook.status, hook.text).toBe(201);

    const count = async (s: Made, path: string, root = false) => {
      const r = await raw(host.origin, `${root ? rootOf(s) : pathOf(s)}${path}`, { key: s.api_key });
      expect(r.status, r.text).toBe(200);
      expect(wireProblems(r)).toEqual([]);
      return (r.json() as unknown[]).length;
    };
    expect(await count(a, '/bundles/')).toBe(1);
    expect(await count(b, '/bundles/')).toBe(0);
    expect(await count(a, '/persons/')).toBe(1);
    expect(await count(b, '/persons/')).toBe(0);
    expect(await count(a, '/webhooks/')).toBe(1);
    expect(await count(b, '/webhooks/')).toBe(0);
    expect(await count(a, '/sandbox/outbox/', true)).toBeGreaterThan(0);
    expect(await count(b, '/sandbox/outbox/', true)).toBe(0);
    // Nor on the server itself.
    expect(await count({ ...a, api_key: host.key, base_url: `${host.origin}/api/v2` }, '/bundles/')).toBe(0);
    const other = await raw(host.origin, `${pathOf(b)}/bundles/${slug}/`, { key: b.api_key });
    expect(other.status).toBe(404);
    expect(wireProblems(other)).toEqual([]);
  });

  it('gives links that lead back into the sandbox', async () => {
    const r = await raw(host.origin, `${pathOf(a)}/bundles/?per_page=1`, { key: a.api_key });
    expect(String(r.headers.link)).toContain(`${host.origin}/sandboxes/${a.id}/api/v2/bundles/`);
    const made = await post(
      host.origin,
      `${pathOf(a)}/bundles/`,
      a.api_key,
      bundleRequest({
        packets: [{ key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com', deliver_via: 'embed' }],
      }),
    );
    expect(made.status, made.text).toBe(201);
    const bundle = made.json() as { packets: { id: string }[] };
    const embed = await post(host.origin, `${pathOf(a)}/packets/${bundle.packets[0]!.id}/embed_url/`, a.api_key, {});
    expect(embed.status, embed.text).toBe(201);
    const url = (embed.json() as { url: string }).url;
    expect(url.startsWith(`${host.origin}/sandboxes/${a.id}/`)).toBe(true);
    // A signing link holds no key: it reaches the sandbox by its path alone.
    const page = await raw(host.origin, new URL(url).pathname, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('contract');
  });

  it('moves one sandbox clock only', async () => {
    const clockOf = async (s: Made) =>
      (
        (await raw(host.origin, `${rootOf(s)}/sandbox/clock/`, { key: s.api_key })).json() as {
          offset_ms: number;
        }
      ).offset_ms;
    const moved = await post(host.origin, `${rootOf(a)}/sandbox/clock/advance/`, a.api_key, { ms: 3 * 86_400_000 });
    expect(moved.status, moved.text).toBe(200);
    expect(await clockOf(a)).toBe(3 * 86_400_000);
    expect(await clockOf(b)).toBe(0);
  });

  it('counts each sandbox key in its own rate limit', async () => {
    const limitOf = async (s: Made) =>
      (await raw(host.origin, `${pathOf(s)}/rate_limit/`, { key: s.api_key })).json() as { remaining: number };
    let last = 0;
    for (let i = 0; i < RATE + 1; i++)
      last = (await raw(host.origin, `${pathOf(a)}/bundles/`, { key: a.api_key })).status;
    expect(last).toBe(429);
    expect((await limitOf(a)).remaining).toBe(0);
    expect((await limitOf(b)).remaining).toBeGreaterThan(RATE / 2);
    expect((await raw(host.origin, `${pathOf(b)}/bundles/`, { key: b.api_key })).status).toBe(200);
  });

  it('deletes a sandbox: its data gone, its key and paths answering 404 and 401', async () => {
    const gone = await raw(host.origin, `/sandboxes/${b.id}/`, { key: host.key, method: 'DELETE' });
    expect(gone.status).toBe(204);
    expect(existsSync(join(dirs.dir, 'sandboxes', b.id))).toBe(false);
    const after = await raw(host.origin, `${pathOf(b)}/bundles/`, { key: b.api_key });
    expect(after.status).toBe(404);
    expect(wireProblems(after)).toEqual([]);
    expect((await raw(host.origin, `/sandboxes/${b.id}/`, { key: host.key })).status).toBe(404);
    const list = (await raw(host.origin, '/sandboxes/', { key: host.key })).json() as Made[];
    expect(list.map((s) => s.id)).toEqual([a.id]);
  });
});

describe('sandbox limits', () => {
  const dirs = tempDir('esign-sandbox-limits-');
  let host: Awaited<ReturnType<typeof hostWith>> | undefined;
  afterEach(async () => {
    await host?.stop();
    host = undefined;
  });
  afterAll(() => dirs.cleanup());

  it('holds at most the cap at once', async () => {
    host = await hostWith({ limits: { max: 2 } }, join(dirs.dir, 'cap'));
    for (let i = 0; i < 2; i++) expect((await post(host.origin, '/sandboxes/', host.key, {})).status).toBe(201);
    const third = await post(host.origin, '/sandboxes/', host.key, {});
    expect(third.status).toBe(409);
    expect(wireProblems(third)).toEqual([]);
    expect(third.text).toContain('at most 2 sandboxes');
  });

  it('deletes an expired sandbox by itself, and forgets it at once', async () => {
    let now = Date.now();
    const dir = join(dirs.dir, 'ttl');
    host = await hostWith({ now: () => now, limits: { sweepMs: 20 } }, dir);
    const s = (await post(host.origin, '/sandboxes/', host.key, { ttl_seconds: 60 })).json() as Made;
    expect((await raw(host.origin, `${pathOf(s)}/bundles/`, { key: s.api_key })).status).toBe(200);
    now += 61_000;
    expect((await raw(host.origin, `${pathOf(s)}/bundles/`, { key: s.api_key })).status).toBe(404);
    expect((await raw(host.origin, '/sandboxes/', { key: host.key })).json()).toEqual([]);
    await expect.poll(() => existsSync(join(dir, s.id)), { timeout: 10_000 }).toBe(false);
  });

  it('counts an expired sandbox out of the cap before the sweep removes it', async () => {
    let now = Date.now();
    host = await hostWith({ now: () => now, limits: { max: 1, sweepMs: 600_000 } }, join(dirs.dir, 'cap-ttl'));
    expect((await post(host.origin, '/sandboxes/', host.key, { ttl_seconds: 60 })).status).toBe(201);
    expect((await post(host.origin, '/sandboxes/', host.key, {})).status).toBe(409);
    now += 61_000;
    expect((await post(host.origin, '/sandboxes/', host.key, {})).status).toBe(201);
  });

  it('refuses writes past its disk, and still answers reads', async () => {
    host = await hostWith({ limits: { maxBytes: 64 * 1024, sweepMs: 20 } }, join(dirs.dir, 'disk'));
    const s = (await post(host.origin, '/sandboxes/', host.key, {})).json() as Made;
    // An empty engine's database is past 64 KB once measured.
    await expect
      .poll(async () => (await post(host!.origin, `${pathOf(s)}/persons/`, s.api_key, { name: 'P' })).status, {
        timeout: 10_000,
      })
      .toBe(403);
    const refused = await post(host.origin, `${pathOf(s)}/persons/`, s.api_key, { name: 'P' });
    expect(wireProblems(refused)).toEqual([]);
    expect(refused.text).toContain('limit of 65536 bytes');
    expect((await raw(host.origin, `${pathOf(s)}/persons/`, { key: s.api_key })).status).toBe(200);
    const listed = (await raw(host.origin, '/sandboxes/', { key: host.key })).json() as Made[];
    expect(listed[0]!.size_bytes).toBeGreaterThan(64 * 1024);
  });

  it('keeps sandboxes across a restart of the server', async () => {
    const dir = join(dirs.dir, 'restart');
    host = await hostWith({}, dir);
    const s = (await post(host.origin, '/sandboxes/', host.key, {})).json() as Made;
    expect((await post(host.origin, `${pathOf(s)}/persons/`, s.api_key, { name: 'Kept' })).status).toBe(201);
    await host.stop();
    host = await hostWith({}, dir);
    // The same id and key, on the new server's address.
    const path = `/sandboxes/${s.id}/api/v2/persons/`;
    const r = await raw(host.origin, path, { key: s.api_key });
    expect(r.status).toBe(200);
    expect((r.json() as { name: string }[]).map((p) => p.name)).toEqual(['Kept']);
  });
});
