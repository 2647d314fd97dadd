// The support console as a person uses it: real headless Chromium (playwright-core, Debian's
// chromium-headless-shell) against a real `esign console` (the local engine, and a remote server) and a
// real `esign serve`, all spawned from bin/esign.js on one data directory. This test process is the
// "other process": it creates, signs and fails deliveries through its own engine on that directory.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { BIN } from '../cli/serveProcess.js';
import { axeBothSchemes, SHOTS, seen, shot as shotIn, textOf } from './consoleDoors.js';
import { launchChromium } from './harness.js';
import { CONTRACT_B64, fixture, programEnv, tempDir } from '../helpers.js';

interface Door {
  origin: string;
  signIn: string;
  proc: ResultPromise;
}

let work: ReturnType<typeof tempDir>;
let engine: LocalEngine;
let browser: Browser;
let env: Record<string, string>;
let serve: { origin: string; proc: ResultPromise };
let key: string;
const doors: ResultPromise[] = [];
let hooks: Server;
/** While true, the receiver answers 503 with a reason. */
let receiverDown = false;

/** Starts `esign console` with `args` and reads its address (stdout) and one-time sign-in URL (stderr). */
async function startConsole(args: string[], extraEnv: Record<string, string> = {}): Promise<Door> {
  const proc = execa('node', [BIN, 'console', '--port', '0', ...args], { env: { ...env, ...extraEnv }, reject: false });
  doors.push(proc);
  const signIn: string = await new Promise((resolve, reject) => {
    let err = '';
    proc.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /Sign in \(this link works once\): (\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    proc.once('exit', () => reject(new Error(`esign console exited: ${err}`)));
  });
  return { origin: new URL(signIn).origin, signIn, proc };
}

async function startServe(): Promise<{ origin: string; proc: ResultPromise }> {
  const proc = execa('node', [BIN, 'serve', '--port', '0', '--rate-limit', '1000000'], { env, reject: false });
  const origin: string = await new Promise((resolve, reject) => {
    proc.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
    proc.once('exit', () => reject(new Error('serve exited early')));
  });
  return { origin, proc };
}

const countOf = (l: Locator, n: number) => expect.poll(() => l.count()).toBe(n);

/** The screenshots of docs/support.md, light and dark (ESIGN_SCREENSHOTS=1). */
const shot = async (page: Page, name: string) => {
  await shotIn(page, name, 'light');
  await shotIn(page, name, 'dark');
};

async function signedIn(door: Door): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 860 }, timezoneId: 'Europe/Paris' });
  const page = await context.newPage();
  await page.goto(door.signIn);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/console/');
  return { context, page };
}

async function newBundle(label: string, signers: { name: string; email: string }[]) {
  const b = await engine.createBundle({
    label,
    packets: signers.map((s, i) => ({ key: `s${i}`, ...s })),
    documents: [{ key: 'contract', file_b64: CONTRACT_B64, filename: 'contract.pdf' }],
  });
  await engine.settle();
  return engine.getBundle(b.id);
}

beforeAll(async () => {
  work = tempDir('esign-console-');
  mkdirSync(SHOTS, { recursive: true });
  env = {
    ...programEnv(),
    HOME: join(work.dir, 'home'),
    ESIGN_DATA_DIR: join(work.dir, 'data'),
    XDG_CONFIG_HOME: join(work.dir, 'config'),
  };
  engine = new LocalEngine({ dataDir: env.ESIGN_DATA_DIR });
  key = engine.keys.create('console test').key;
  // A webhook receiver that is down while the test says so.
  hooks = createServer((req, res) => {
    req.resume();
    res.writeHead(receiverDown ? 503 : 200).end(receiverDown ? 'down for maintenance' : 'ok');
  });
  await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
  await engine.createWebhook({
    name: 'CRM sync',
    url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`,
    event_types: ['bundle_sent'],
  });
  [browser, serve] = await Promise.all([launchChromium(), startServe()]);
});

afterAll(async () => {
  await browser?.close();
  for (const p of [...doors, serve?.proc]) p?.kill('SIGTERM');
  await Promise.all([...doors, serve?.proc].map((p) => p?.catch(() => undefined)));
  await new Promise<void>((r) => (hooks ? hooks.close(() => r()) : r()));
  await engine?.close();
  work?.cleanup();
});

describe('esign console on the local engine', () => {
  it("signs in once, finds a Bundle by a signer's email, and follows it live as a signer signs elsewhere", async () => {
    const b = await newBundle('Office lease 2027', [
      { name: 'Ada Lovelace', email: 'ada.lease@example.com' },
      { name: 'Bob Stone', email: 'bob.lease@example.com' },
    ]);
    const door = await startConsole([]);
    const { context, page } = await signedIn(door);
    // The sign-in link was spent.
    const again = await (await browser.newContext()).newPage();
    await again.goto(door.signIn);
    await textOf(again.locator('main'), 'has been used or has expired');
    await again.context().close();

    await page.getByLabel('Search').fill('bob.lease@example.com');
    await page.getByLabel('Search').press('Enter');
    await seen(page.getByRole('heading', { name: '1 Bundle found' }));
    await shot(page, 'find');
    await page.getByRole('link', { name: 'Office lease 2027' }).click();
    await textOf(page.getByRole('heading', { level: 1 }), 'Office lease 2027');
    await textOf(page.locator('h1 .state'), 'Sent');
    const before = Number(await page.locator('#timeline').getAttribute('data-count'));
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));

    await engine.signPacket(b.packets[0].id, {});
    // Generous: with two suites on the machine, the console's process and the page's Chromium are slow.
    await expect
      .poll(async () => Number(await page.locator('#timeline').getAttribute('data-count')), { timeout: 30_000 })
      .toBeGreaterThan(before);
    await textOf(page.locator('#timeline'), 'Ada Lovelace');
    // No reload: the page's own state survived the update.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    await textOf(page.locator('#live-status'), 'updated');
    await shot(page, 'bundle');

    // The last signer completes it: files appear, and the first PDF is drawn by PDF.js.
    await engine.signPacket(b.packets[1].id, {});
    await engine.settle();
    await textOf(page.locator('h1 .state'), 'Complete', 10_000);
    await page.getByRole('button', { name: 'Preview' }).first().click();
    await page.locator('#preview-canvas[data-drawn="1"]').waitFor({ state: 'attached', timeout: 15_000 });
    const inked = await page.locator('#preview-canvas').evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let dark = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i]! < 128 && d[i + 3]! > 0) dark++;
      return dark;
    });
    expect(inked).toBeGreaterThan(100);
    await page.locator('#preview').scrollIntoViewIfNeeded();
    await shot(page, 'preview');
    expect(await axeBothSchemes(page)).toEqual([]);
    await context.close();
  }, 90_000);

  it('resends a failed webhook delivery after a confirmation; the new attempt shows', async () => {
    receiverDown = true;
    const b = await newBundle('Supplier agreement', [{ name: 'Cy Resend', email: 'cy.resend@example.com' }]);
    // Delivered here or by the running esign serve, whichever comes first: it fails either way.
    await engine.deliverWebhooks();
    await expect
      .poll(async () => (await engine.listWebhookEvents({ bundle: b.id })).items[0]?.deliveries.length ?? 0)
      .toBeGreaterThan(0);
    receiverDown = false;
    const door = await startConsole([]);
    const { context, page } = await signedIn(door);
    await page.goto(`${door.origin}/console/bundles/${b.id}`);
    const failing = page.locator('li.hook.failing');
    await textOf(failing, 'Failing');
    await countOf(failing.locator('.reason'), 1);
    await failing.getByRole('link', { name: 'Resend this delivery…' }).click();
    await seen(page.getByRole('heading', { name: 'Resend the delivery' }));
    await page.getByRole('button', { name: 'Resend the delivery' }).click();
    // The banner says what the receiver answered.
    await seen(page.getByRole('status').filter({ hasText: 'Delivered: the receiver answered HTTP 200: ok.' }));
    await textOf(page.locator('li.hook.ok'), 'Delivered');
    await countOf(page.locator('li.hook.ok ol.attempts li'), 2);
    await page.goto(`${door.origin}/console/webhooks`);
    await shot(page, 'webhooks');
    expect(await axeBothSchemes(page)).toEqual([]);
    await context.close();
  });

  it('verifies a dropped PDF in the browser: a signed one matches, another does not', async () => {
    const b = await newBundle('Verified NDA', [{ name: 'Dee Verify', email: 'dee.verify@example.com' }]);
    await engine.signPacket(b.packets[0].id, {});
    await engine.settle();
    const signed = (await engine.getBundleFiles(b.id)).find((f) => f.kind === 'signed_pdf')!;
    const chunks: Buffer[] = [];
    for await (const c of await engine.openFileLink(signed.file_url)) chunks.push(c as Buffer);
    const door = await startConsole([]);
    const { context, page } = await signedIn(door);
    const verifyCalls: string[] = [];
    page.on(
      'request',
      (r) => r.url().endsWith('/console/verify') && r.method() === 'POST' && verifyCalls.push(r.postData() ?? ''),
    );
    await page.getByRole('link', { name: 'Verify' }).click();
    // Dropped: a DataTransfer with the file, as a drag from the desktop gives.
    const b64 = Buffer.concat(chunks).toString('base64');
    await page.locator('#drop').evaluate((drop, data) => {
      const bytes = Uint8Array.from(atob(data), (ch) => ch.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'signed.pdf', { type: 'application/pdf' }));
      drop.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, b64);
    await seen(page.locator('#verify-result [data-status="match"]'));
    await textOf(page.locator('#verify-result'), signed.sha256!);
    await shot(page, 'verify');
    // Chosen: the unsigned original is no document of the service.
    await page.locator('#verify-file').setInputFiles(fixture('nda.pdf'));
    await seen(page.locator('#verify-result [data-status="no_match"]'));
    // Only hashes travelled, never a file.
    expect(verifyCalls).toHaveLength(2);
    for (const body of verifyCalls) expect(body).toMatch(/^csrf=[\w-]+&hash=[0-9a-f]{64}$/);
    expect(await axeBothSchemes(page)).toEqual([]);
    await context.close();
  });

  it('read-only: no action offered, and a change asked for anyway is refused', async () => {
    const b = await newBundle('Look but do not touch', [{ name: 'Eve Reader', email: 'eve.reader@example.com' }]);
    const door = await startConsole(['--read-only']);
    const { context, page } = await signedIn(door);
    await page.goto(`${door.origin}/console/bundles/${b.id}`);
    await textOf(page.locator('header'), 'read-only');
    await countOf(page.getByRole('link', { name: /Cancel this Bundle|Remind/ }), 0);
    await page.goto(`${door.origin}/console/bundles/${b.id}/cancel`);
    await textOf(page.getByRole('alert'), 'read-only');
    const csrf = await page.locator('meta[name=csrf-token]').getAttribute('content');
    const res = await page.request.post(`${door.origin}/console/bundles/${b.id}/cancel`, { form: { csrf: csrf! } });
    expect(res.status()).toBe(403);
    expect((await engine.getBundle(b.id)).status).toBe('se');
    await context.close();
  });

  it('works from the keyboard alone: skip link, search, open a Bundle', async () => {
    await newBundle('Keyboard contract', [{ name: 'Kay Board', email: 'kay.board@example.com' }]);
    const door = await startConsole([]);
    const { context, page } = await signedIn(door);
    const tabTo = async (test: () => Promise<boolean>, max = 30) => {
      for (let i = 0; i < max; i++) {
        await page.keyboard.press('Tab');
        if (await test()) return;
      }
      throw new Error('focus never got there');
    };
    // The skip link comes first on a page that does not start in a field.
    await page.goto(`${door.origin}/console/verify`);
    await page.keyboard.press('Tab');
    await textOf(page.locator(':focus'), 'Skip to content');
    await page.keyboard.press('Enter');
    await tabTo(async () => (await page.evaluate(() => document.activeElement?.textContent)) === 'Find');
    await page.keyboard.press('Enter');
    // The find page starts in the search box.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('q');
    await page.keyboard.type('kay.board@example.com');
    await page.keyboard.press('Enter');
    await seen(page.getByRole('heading', { name: '1 Bundle found' }));
    expect(await axeBothSchemes(page)).toEqual([]);
    await tabTo(async () => (await page.evaluate(() => document.activeElement?.textContent)) === 'Keyboard contract');
    await page.keyboard.press('Enter');
    await textOf(page.getByRole('heading', { level: 1 }), 'Keyboard contract');
    expect(await axeBothSchemes(page)).toEqual([]);
    await context.close();
  });
});

describe('the other doors', () => {
  it('esign serve: /console/ signs in with an API key', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 700 } });
    const page = await context.newPage();
    await page.goto(`${serve.origin}/console/`);
    await seen(page.getByRole('heading', { name: 'Sign in to the support console' }));
    expect(await axeBothSchemes(page)).toEqual([]);
    await shot(page, 'sign-in');
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await textOf(page.getByRole('alert'), 'not valid');
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await seen(page.getByRole('heading', { name: 'Find a Bundle' }));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await seen(page.getByRole('heading', { name: 'Sign in to the support console' }));
    await page.goto(`${serve.origin}/console/`);
    await seen(page.getByRole('heading', { name: 'Sign in to the support console' }));
    await context.close();
  });

  it('esign console over a remote server: the story, what it cannot show said, live by polling', async () => {
    const b = await newBundle('Remote story', [
      { name: 'Ray Remote', email: 'ray.remote@example.com' },
      { name: 'Sam Second', email: 'sam.second@example.com' },
    ]);
    const door = await startConsole(['--poll-seconds', '1'], {
      ESIGN_BASE_URL: `${serve.origin}/api/v2`,
      ESIGN_API_KEY: key,
    });
    const { context, page } = await signedIn(door);
    await page.getByLabel('Search').fill('ray.remote@example.com');
    await page.getByLabel('Search').press('Enter');
    await page.getByRole('link', { name: 'Remote story' }).click();
    await textOf(page.locator('#live-status'), 'checked every 1 s');
    await textOf(page.locator('body'), 'This backend does not show the messages it sends.');
    await seen(page.getByRole('heading', { name: 'Not shown on this backend' }));
    await engine.signPacket(b.packets[0].id, {});
    await textOf(page.locator('h1 .state'), 'Started', 10_000);
    await page.goto(`${door.origin}/console/outbox`);
    await textOf(page.locator('main'), 'outbox is the local engine');
    await context.close();
  });

  it("esign console over a remote server: an open page's live line says when the backend refuses the key", async () => {
    const b = await newBundle('Remote refused', [{ name: 'Rita Remote', email: 'rita.remote@example.com' }]);
    const own = engine.keys.create('console live refused');
    const door = await startConsole(['--poll-seconds', '1'], {
      ESIGN_BASE_URL: `${serve.origin}/api/v2`,
      ESIGN_API_KEY: own.key,
    });
    const { context, page } = await signedIn(door);
    // Revoked once the page's stream is open: its checks, not its opening, meet the refusal.
    const streaming = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/live'));
    await page.goto(`${door.origin}/console/bundles/${b.id}`);
    expect((await streaming).status()).toBe(200);
    engine.keys.revoke(own.record.id);
    await textOf(page.locator('#live-status'), "The backend refused this console's API key");
    await context.close();
  });
});
