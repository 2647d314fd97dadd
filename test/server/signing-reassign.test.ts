// The signing page's reassignment control (issue 11, item 5): shown only when the Bundle allows
// it, and a real form POST hands the turn on.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { bundleRequest, newEngine } from '../helpers.js';

let engine: ReturnType<typeof newEngine>;
let close: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await close?.();
  await engine?.dispose();
});

async function serve() {
  engine = newEngine();
  const app = await buildServer({ service: engine, local: engine, authenticate: () => undefined });
  await app.listen({ host: '127.0.0.1', port: 0 });
  close = () => app.close();
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  engine.setPublicUrl(origin);
  return origin;
}

const embedded = (over: Record<string, unknown>) =>
  bundleRequest({ packets: [{ key: 'ada', name: 'Ada', email: 'ada@example.com', deliver_via: 'embed' }], ...over });

describe('signing page: reassignment', () => {
  it('offers "Ask someone else to sign" only when allowed, and the form hands the turn on', async () => {
    await serve();
    const plain = await engine.createBundle(embedded({}));
    const page0 = await (await fetch((await engine.createEmbedUrl(plain.packets[0]!.id)).url)).text();
    expect(page0).not.toContain('reassign-form');

    const b = await engine.createBundle(embedded({ allow_signer_reassign: true }));
    const res = await fetch((await engine.createEmbedUrl(b.packets[0]!.id)).url);
    const html = await res.text();
    expect(html).toContain('Ask someone else to sign');
    const action = /id="reassign-form" method="post" action="([^"]+)"/.exec(html)![1]!;
    const form = new FormData();
    form.set('name', 'Cy Newman');
    form.set('email', 'cy@example.com');
    form.set('reason', 'on leave');
    const done = await fetch(new URL(action, res.url), { method: 'POST', body: form });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Cy Newman has been asked to sign');
    const got = await engine.getBundle(b.id);
    expect(got.packets.map((p) => [p.name, p.status])).toEqual([
      ['Ada', 'ra'],
      ['Cy Newman', 'se'],
    ]);
    expect(
      engine
        .outbox({ bundle: b.id })
        .filter((m) => m.kind === 'signing_request')
        .map((m) => m.recipient),
    ).toEqual(['cy@example.com']);
    // The old session now shows how it ended.
    const after = await fetch(new URL(action.replace(/\/reassign$/, ''), res.url));
    expect(await after.text()).toContain('You asked someone else to sign');
  });
});

describe('signing page: forms without files', () => {
  it('a decline and a reassignment sent as forms leave no temporary directory behind', async () => {
    const origin = await serve();
    const tmp = mkdtempSync(join(tmpdir(), 'esign-test-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const post = async (bundle: { packets: { id: string }[] }, verb: string, fields: Record<string, string>) => {
        const page = await fetch((await engine.createEmbedUrl(bundle.packets[0]!.id)).url);
        const action = new RegExp(`action="([^"]+/${verb})"`).exec(await page.text())![1]!;
        const form = new FormData();
        for (const [k, v] of Object.entries(fields)) form.set(k, v);
        const res = await fetch(new URL(action, origin), { method: 'POST', body: form });
        expect(res.status, await res.text()).toBe(200);
      };
      const a = await engine.createBundle(embedded({ allow_signer_reassign: true }));
      await post(a, 'reassign', { name: 'Cy Newman', email: 'cy@example.com', reason: 'on leave' });
      const b = await engine.createBundle(embedded({}));
      await post(b, 'decline', { reason: 'wrong figures' });
      expect((await engine.getBundle(b.id)).status).toBe('de');
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
