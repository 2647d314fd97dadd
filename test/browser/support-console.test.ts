// Support staff in real Chromium, through both doors of the console (`esign console` and `esign
// serve`'s /console/, spawned from the built binary on one data directory): times in the viewer's
// zone, outcomes as the backend answered them, every list counted and paged, signing links kept
// secret, sessions that end with their key, and daily use (dark mode, `/`, few Tab presses, search
// by words without accents, the decline reason and the files near the top). Axe in both schemes.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { RETRY_DELAYS_MIN } from '../../src/local/webhooks/dispatcher.js';
import type { Bundle } from '../../src/service/types.js';
import { CONTRACT_B64, programEnv, tempDir } from '../helpers.js';
import { clockIn, shownIn } from '../timeShown.js';
import {
  axeBothSchemes,
  consoleDoor,
  type Door,
  SHOTS,
  seen,
  serveDoor,
  shot,
  stopDoors,
  textOf,
} from './consoleDoors.js';
import { launchChromium } from './harness.js';

const REASON = 'the company name on page 2 is wrong';
const work = tempDir('esign-support-console-');
let engine: LocalEngine;
let browser: Browser;
let receiver: Server;
/** What the webhook receiver answers: down (503 with a reason) or up. */
let receiverUp = false;
let key = '';
const doors: Record<Door['name'], Door> = {} as Record<Door['name'], Door>;
let readOnly: Door;
let falcon: Bundle;
let lease: Bundle;
/** A Bundle for each door's resend, its first delivery failed before the doors started. */
const resent = {} as Record<Door['name'], Bundle>;

const env = () => ({
  ...programEnv(),
  HOME: join(work.dir, 'home'),
  ESIGN_DATA_DIR: join(work.dir, 'data'),
  XDG_CONFIG_HOME: join(work.dir, 'config'),
});

async function newBundle(label: string, signers: { name: string; email: string }[]): Promise<Bundle> {
  const b = await engine.createBundle({
    label,
    packets: signers.map((s, i) => ({ key: `s${i}`, ...s })),
    documents: [{ key: 'contract', file_b64: CONTRACT_B64, filename: 'contract.pdf' }],
  });
  await engine.settle();
  return engine.getBundle(b.id);
}

const MIN = 60_000;
/**
 * The first retries of the deliveries that fail in beforeAll (4 and 12 minutes), and how long before
 * the tests the last of those attempts was: the next retry is then the schedule's third delay less
 * this (36 - 4 = 32 minutes) away.
 */
const RETRIED = RETRY_DELAYS_MIN.slice(0, 2);
const LAST_TRY_AGO_MIN = 4;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  engine = new LocalEngine({ dataDir: env().ESIGN_DATA_DIR });
  key = engine.keys.create('support console test').key;
  // What this file starts with happened in the last 20 minutes, on the engine's clock, which the doors
  // read too; see the deliveries below.
  engine.clock.setOffset(-(RETRIED.reduce((a, b) => a + b, 0) + LAST_TRY_AGO_MIN) * MIN);
  receiver = createServer((req, res) => {
    req.resume();
    res.writeHead(receiverUp ? 200 : 503).end(receiverUp ? 'ok' : 'down for maintenance');
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  await engine.createWebhook({
    name: 'CRM sync',
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    event_types: ['bundle_sent', 'packet_declined'],
  });
  falcon = await newBundle('Falcon NDA', [
    { name: 'Jane Roe', email: 'jane.roe@example.com' },
    { name: 'José Núñez', email: 'jose.nunez@example.com' },
  ]);
  await engine.declinePacket(falcon.packets[1]!.id, REASON);
  lease = await newBundle('Lease 12B', [{ name: 'Dana Reed', email: 'dana.reed@example.com' }]);
  // Enough failing deliveries and messages for more than one page of each.
  for (let i = 0; i < 26; i++) await newBundle(`Filler ${i}`, [{ name: `Filler ${i}`, email: `f${i}@example.com` }]);
  // Made before the doors start, so that their first delivery is this process's, which keeps the
  // receiver's reply: made while they ran, esign serve's own background deliveries (status alone) once
  // reached one first on a loaded machine.
  for (const name of ['esign console', 'esign serve'] as const)
    resent[name] = await newBundle(`Resend through ${name}`, [{ name: 'Rex Send', email: 'rex.send@example.com' }]);
  // Three failed attempts each, 20, 16 and 4 minutes ago, so that the next is 32 minutes away: esign
  // serve retries what is due in the background and keeps the status alone, and a first retry due 4
  // minutes after the first attempt came during this file's health checks on a loaded machine (two
  // runs of the suite: 3.7 minutes in).
  await engine.deliverWebhooks();
  for (const retryAfter of RETRIED) {
    engine.clock.advance(retryAfter * MIN);
    await engine.deliverWebhooks();
  }
  engine.clock.setOffset(0);
  [browser, doors['esign console'], doors['esign serve'], readOnly] = await Promise.all([
    launchChromium(),
    consoleDoor(env()),
    // Its receiver is on 127.0.0.1. A server that lets key holders reach private addresses keeps the
    // status of its own deliveries, not the reply (the deliveries made here keep both).
    serveDoor(env(), () => key, ['--allow-private-urls']),
    consoleDoor(env(), ['--read-only']),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopDoors([...Object.values(doors), readOnly]);
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  await engine?.close();
  work.cleanup();
});

/** A zone's offset, worked out here apart from the code under test. */
const offsetIn = (zone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(new Date())
    .find((p) => p.type === 'timeZoneName')!
    .value.replace('GMT', 'UTC');

const bundlePage = async (door: Door, page: Page, slug: string) => {
  await page.goto(`${door.origin}/console/bundles/${slug}`);
  await seen(page.locator('#story h1'));
};

describe.each(['esign console', 'esign serve'] as const)('%s', (name) => {
  it("shows times in the viewer's zone, named, exact on hover, with a switch to UTC", async () => {
    const declined = (await engine.listBundleEvents(falcon.id)).find((e) => e.kind === 'pd')!;
    for (const zone of ['Asia/Tokyo', 'America/Los_Angeles']) {
      const page = await doors[name].signIn(browser, { timezoneId: zone });
      await bundlePage(doors[name], page, falcon.id);
      await textOf(page.locator('#zone-name'), `Times in ${zone} (${offsetIn(zone)})`);
      const time = page.locator('#timeline li', { hasText: 'Signer declined' }).locator('time').first();
      expect(await time.textContent()).toMatch(new RegExp(`${clockIn(declined.timestamp, zone)}$`));
      const title = (await time.getAttribute('title')) ?? '';
      expect(title).toContain(offsetIn(zone).replace(/^UTC$/, 'UTC'));
      expect(title).toContain(declined.timestamp);
      // The switch: UTC, named, kept across pages, and back.
      await page.getByRole('button', { name: 'Show UTC' }).click();
      await textOf(page.locator('#zone-name'), 'Times in UTC');
      expect(await time.textContent()).toMatch(new RegExp(`${clockIn(declined.timestamp, 'UTC')}$`));
      await page.reload();
      await textOf(page.locator('#zone-name'), 'Times in UTC');
      await page.getByRole('button', { name: 'Show my time zone' }).click();
      await textOf(page.locator('#zone-name'), zone);
      await page.context().close();
    }
  }, 90_000);

  it('says what the backend answered: a failed resend with its status and reply, a delivery as a success', async () => {
    const b = resent[name];
    const page = await doors[name].signIn(browser);
    await bundlePage(doors[name], page, b.id);
    const failing = page.locator('li.hook.failing').first();
    await textOf(failing, 'HTTP 503');
    await textOf(failing.locator('ol.attempts li.failed .reason'), 'down for maintenance');
    receiverUp = false;
    await failing.getByRole('link', { name: 'Resend this delivery…' }).click();
    await page.getByRole('button', { name: 'Resend the delivery' }).click();
    await textOf(
      page.getByRole('alert'),
      name === 'esign console'
        ? 'The delivery failed again: HTTP 503: down for maintenance.'
        : 'The delivery failed again: HTTP 503.',
    );
    expect(await page.locator('.done-note').count()).toBe(0);
    receiverUp = true;
    try {
      await page.locator('li.hook.failing').first().getByRole('link', { name: 'Resend this delivery…' }).click();
      await page.getByRole('button', { name: 'Resend the delivery' }).click();
      await textOf(
        page.getByRole('status').filter({ hasText: 'Delivered' }),
        name === 'esign console'
          ? 'Delivered: the receiver answered HTTP 200: ok.'
          : 'Delivered: the receiver answered HTTP 200.',
      );
    } finally {
      receiverUp = false;
    }
    // The success is styled as one: not in the failure's colour.
    const ok = page.locator('li.hook.ok ol.attempts li.ok').last();
    await textOf(ok, 'delivered');
    const colour = (l: ReturnType<Page['locator']>) => l.evaluate((e) => getComputedStyle(e).color);
    const failed = page.locator('ol.attempts li.failed .outcome').first();
    expect(await colour(ok.locator('.outcome'))).not.toBe(await colour(failed));
    // Shown once: a reload does not say it again.
    await page.reload();
    expect(await page.getByRole('status').filter({ hasText: 'Delivered:' }).count()).toBe(0);
    await page.context().close();
  }, 90_000);

  it("counts and pages every list, keeps pages past the end, and shows each webhook's health and replies", async () => {
    const door = doors[name];
    const page = await door.signIn(browser);
    await page.goto(`${door.origin}/console/webhooks`);
    const failingTotal = (await engine.listWebhookEvents({ success: false, per_page: 1 })).total;
    expect(failingTotal).toBeGreaterThan(25);
    await textOf(page.locator('#fail-h'), `${failingTotal} events not delivered`);
    const pager = page.getByRole('navigation', { name: 'Pages of failing deliveries' });
    await textOf(pager, 'Page 1 of 2');
    await textOf(page.locator('section', { has: page.locator('#fail-h') }), 'down for maintenance');
    // Health: delivered share, the last failure with the receiver's reply, the next retry.
    const health = page.locator('dl.health').first();
    await textOf(health, /Delivered\s*\d+(\.\d)?%/);
    await textOf(health, /Last failure.*HTTP 503: down for maintenance/s);
    // In words against now (about half an hour ahead: see beforeAll), the time itself after the failure.
    await textOf(health, /Next retry\s*in \d+m/);
    const [failedAt, retryAt] = await health
      .locator('time')
      .evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime')));
    expect(Date.parse(retryAt!)).toBeGreaterThan(Date.parse(failedAt!));
    expect(await axeBothSchemes(page)).toEqual([]);
    await pager.getByRole('link', { name: 'Next page' }).click();
    await textOf(page.getByRole('navigation', { name: 'Pages of failing deliveries' }), 'Page 2 of 2');
    // The outbox: counted, paged.
    await page.goto(`${door.origin}/console/outbox`);
    const messages = engine.outboxCount();
    await textOf(page.locator('#outbox-h'), `${messages} messages, newest first`);
    await textOf(page.getByRole('navigation', { name: 'Pages of messages' }), `Page 1 of ${Math.ceil(messages / 25)}`);
    if (name === 'esign console') for (const scheme of ['light', 'dark'] as const) await shot(page, 'outbox', scheme);
    expect(await axeBothSchemes(page)).toEqual([]);
    // Filtered by recipient and kind, as esign local outbox --to --kind: one row a message.
    const to = engine.outbox({ bundle: lease.id })[0]!.recipient;
    await page.getByLabel('Recipient').fill(to.toUpperCase());
    await page.getByLabel('Kind').selectOption('signing_request');
    await page.getByRole('button', { name: 'Filter' }).click();
    const found = engine.outboxCount({ to, kind: 'signing_request' });
    expect(found).toBeGreaterThan(0);
    await textOf(page.locator('#outbox-h'), `${found} message${found === 1 ? '' : 's'} found, newest first`);
    expect(await page.locator('table.outbox tbody tr').count()).toBe(Math.min(found, 25));
    for (const cell of await page.locator('table.outbox tbody tr td:nth-child(3)').allTextContents())
      expect(cell.toLowerCase()).toBe(to.toLowerCase());
    if (name === 'esign console')
      for (const scheme of ['light', 'dark'] as const) await shot(page, 'outbox-filtered', scheme);
    expect(await axeBothSchemes(page)).toEqual([]);
    // A page past the end is an empty page that says so, never an error.
    for (const path of ['/console/?page=99', '/console/outbox?page=99', '/console/webhooks?failing=99']) {
      const res = await page.goto(`${door.origin}${path}`);
      expect(res?.status(), path).toBe(200);
      await textOf(page.locator('body'), 'Page 99 is past the end');
      await seen(page.getByRole('link', { name: 'Last page' }));
    }
    await page.context().close();
  }, 90_000);

  it('cuts signing links short; showing one whole is a deliberate act that says whose it is', async () => {
    const door = doors[name];
    const tokensOf = (bundle?: string) =>
      engine
        .outbox({ bundle, limit: null })
        .flatMap((m) => [...m.body.matchAll(/\/sign\/([A-Za-z0-9_-]{8,})/g)].map((x) => x[1]!));
    const tokens = tokensOf();
    expect(tokensOf(lease.id).length).toBeGreaterThan(0);
    const page = await door.signIn(browser);
    for (const path of [`/console/bundles/${lease.id}`, '/console/outbox']) {
      await page.goto(`${door.origin}${path}`);
      const html = await page.content();
      for (const t of tokens) expect(html, path).not.toContain(t);
    }
    await bundlePage(door, page, lease.id);
    await textOf(page.locator('.message pre.body').first(), /\/sign\/[\w-]{4}…/);
    await page.getByRole('link', { name: 'Copy signing link…' }).first().click();
    await textOf(page.locator('body'), 'This link acts as Dana Reed <dana.reed@example.com>');
    await page.getByRole('button', { name: 'Show the signing link' }).click();
    const shown = await page.getByLabel('Signing link', { exact: true }).inputValue();
    expect(tokensOf(lease.id).some((t) => shown.endsWith(`/sign/${t}`))).toBe(true);
    await textOf(page.locator('body'), 'Whoever opens this link signs as Dana Reed');
    expect(new URL(page.url()).search).toBe('');
    expect(await axeBothSchemes(page)).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('daily use: / goes to search, results a few Tabs away, words without accents, the decline reason and files near the top', async () => {
    const door = doors[name];
    const page = await door.signIn(browser, { timezoneId: 'Europe/Paris' });
    // The find page starts in the search box.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    await page.keyboard.type('falcon jane');
    await page.keyboard.press('Enter');
    await seen(page.getByRole('heading', { name: '1 Bundle found' }));
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    let tabs = 0;
    while ((await page.evaluate(() => document.activeElement?.textContent)) !== 'Falcon NDA' && tabs < 10) {
      await page.keyboard.press('Tab');
      tabs++;
    }
    expect(tabs).toBeLessThanOrEqual(3);
    for (const search of ['jose', 'JOSE NUNEZ', 'núñez falcon'])
      expect(
        (await engine.listBundles({ search })).items.map((b) => b.id),
        search,
      ).toEqual([falcon.id]);
    await page.keyboard.press('Enter');
    await seen(page.locator('#story h1'));
    // The reason and the files come before the timeline.
    const order = await page.evaluate(() =>
      ['#summary-h', '#files-h', '#signers-h', '#timeline-h'].map((s) =>
        document.querySelector(s)!.compareDocumentPosition(document.querySelector('#timeline-h')!),
      ),
    );
    const FOLLOWING = 4; // Node.DOCUMENT_POSITION_FOLLOWING
    expect(order.slice(0, 3).every((p) => p & FOLLOWING)).toBe(true);
    await textOf(page.locator('section', { has: page.locator('#summary-h') }), `by José Núñez`);
    await textOf(page.locator('section', { has: page.locator('#summary-h') }), REASON);
    // `/` from anywhere: back to the search box.
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('q');
    await page.goto(`${door.origin}/console/bundles/${falcon.id}`);
    expect(await axeBothSchemes(page)).toEqual([]);
    // Dark mode follows the system.
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(dark).not.toBe(light);
    const lum = (rgb: string) =>
      rgb
        .match(/\d+/g)!
        .slice(0, 3)
        .reduce((n, x) => n + Number(x), 0);
    expect(lum(dark)).toBeLessThan(lum(light));
    if (name === 'esign console') {
      await shot(page, 'bundle-top', 'light');
      await shot(page, 'bundle-top', 'dark');
    }
    await page.context().close();
  }, 90_000);
});

describe('sessions and read-only', () => {
  it('esign serve: a session ends at its next request once its API key is revoked', async () => {
    const own = engine.keys.create('to be revoked');
    const door = await serveDoor(env(), () => own.key);
    try {
      const page = await door.signIn(browser);
      await bundlePage(door, page, falcon.id);
      engine.keys.revoke(own.record.id);
      await page.goto(`${door.origin}/console/bundles/${falcon.id}`);
      await seen(page.getByRole('heading', { name: 'Sign in to the support console' }));
      await page.context().close();
    } finally {
      await stopDoors([door]);
    }
  }, 60_000);

  /**
   * esign console over esign serve on a key of its own, a Bundle page open; the key is revoked and
   * `meanwhile` runs on that page; the next Bundle page says the backend refused the key, the one
   * after is the sign-in.
   */
  async function refusedKeyEndsTheSession(keyName: string, meanwhile: (page: Page) => Promise<void>) {
    const own = engine.keys.create(keyName);
    const door = await consoleDoor(
      { ...env(), ESIGN_BASE_URL: `${doors['esign serve'].origin}/api/v2`, ESIGN_API_KEY: own.key },
      [],
    );
    try {
      const page = await door.signIn(browser);
      await bundlePage(door, page, falcon.id);
      engine.keys.revoke(own.record.id);
      await meanwhile(page);
      await page.goto(`${door.origin}/console/bundles/${falcon.id}`);
      await textOf(page.getByRole('alert'), "The backend refused this console's API key");
      await page.goto(`${door.origin}/console/`);
      await seen(page.getByRole('heading', { name: 'Sign in to the support console' }));
      await page.context().close();
    } finally {
      await stopDoors([door]);
    }
  }

  it('esign console over a remote server: when the server refuses its key, the session ends', async () => {
    await refusedKeyEndsTheSession('remote console', async () => undefined);
  }, 60_000);

  it("esign console over a remote server: when a page's live stream is the first to be refused, the next page says why", async () => {
    await refusedKeyEndsTheSession('remote console, live', async (page) => {
      // What the page's EventSource does when it connects after the revocation (its page already shown).
      const stream = await page.evaluate(async () => {
        const res = await fetch(document.querySelector<HTMLElement>('[data-live]')!.dataset.live!, {
          headers: { accept: 'text/event-stream' },
        });
        return res.status;
      });
      expect(stream).toBe(401);
    });
  }, 60_000);

  it('a read-only console offers no signing link and refuses one asked for', async () => {
    const page = await readOnly.signIn(browser);
    await bundlePage(readOnly, page, lease.id);
    expect(await page.getByRole('link', { name: 'Copy signing link…' }).count()).toBe(0);
    const id = engine.outbox({ bundle: lease.id })[0]!.id;
    await page.goto(`${readOnly.origin}/console/bundles/${lease.id}/messages/${id}/signing-link`);
    await textOf(page.getByRole('alert'), 'read-only');
    await page.context().close();
  }, 60_000);

  it("measures relative times against the engine's clock (local clock advance) in both doors", async () => {
    engine.clock.advance(3 * 86_400_000);
    try {
      for (const name of ['esign console', 'esign serve'] as const) {
        const page = await doors[name].signIn(browser);
        await page.goto(`${doors[name].origin}/console/?q=${falcon.id}`);
        await textOf(page.locator('table.list tbody tr').first(), '3d ago');
        await page.context().close();
      }
    } finally {
      engine.clock.setOffset(0);
    }
  }, 60_000);
});

describe('reminders on a Bundle page', () => {
  it("say how many went and when the next may go, in the viewer's zone; Remind is offered only when it can succeed", async () => {
    const b = await newBundle('Reminded lease', [{ name: 'Kai Moreno', email: 'kai.moreno@example.com' }]);
    const kai = b.packets[0]!.id;
    await engine.remindPacket(kai);
    const sent = (await engine.listBundleEvents(b.id)).find((e) => e.kind === 'pr')!.timestamp;
    const zone = 'Asia/Tokyo';
    const door = doors['esign console'];
    try {
      const page = await door.signIn(browser, { timezoneId: zone });
      await bundlePage(door, page, b.id);
      const row = page.locator('#story tr', { hasText: 'Kai Moreno' });
      const next = new Date(Date.parse(sent) + 3600_000).toISOString();
      await textOf(
        row.locator('.reminders'),
        `Reminders: 1 sent, the last ${shownIn(sent, zone)}; the next can be sent after ${shownIn(next, zone)} (once an hour); next automatic `,
      );
      await textOf(row.locator('.reminders'), '(3 d after the signing request, then every 3 d)');
      await textOf(row, `Remind after ${shownIn(next, zone)}`);
      expect(await row.getByRole('link', { name: /Remind/ }).count()).toBe(0);
      // An hour on, it can go: the link is there and the reminder goes.
      engine.clock.advance(61 * 60_000);
      await bundlePage(door, page, b.id);
      await textOf(row.locator('.reminders'), 'one can be sent now');
      await row.getByRole('link', { name: 'Remind Kai Moreno…' }).click();
      await page.getByRole('button', { name: 'Remind Kai Moreno' }).click();
      await textOf(page.locator('body'), 'A reminder went to Kai Moreno by email to kai.moreno@example.com.');
      await textOf(page.locator('#story tr', { hasText: 'Kai Moreno' }).locator('.reminders'), 'Reminders: 2 sent');
      await shot(page, 'signer-reminders');
      await page.context().close();
    } finally {
      engine.clock.setOffset(0);
      await engine.cancelBundle(b.id);
    }
  }, 60_000);
});

describe('a disabled webhook on a Bundle page', () => {
  it.each(['esign console', 'esign serve'] as const)(
    '%s: what it missed while disabled is kept, and sent once each after it is enabled again',
    async (name) => {
      receiverUp = true;
      const w = await engine.createWebhook({
        name: `Archive ${name}`,
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/archive`,
        event_types: ['bundle_sent'],
      });
      await engine.updateWebhook(w.id, { enabled: false });
      const missed = await newBundle(`Missed by ${name}`, [{ name: 'Kim Lee', email: 'kim.lee@example.com' }]);
      // Another Bundle's event it missed too: the Bundle page sends this Bundle's alone, and says so.
      const other = await newBundle(`Also missed by ${name}`, [{ name: 'Rui Sá', email: 'rui.sa@example.com' }]);
      try {
        const door = doors[name];
        const page = await door.signIn(browser, { timezoneId: 'UTC' });
        await bundlePage(door, page, missed.id);
        const row = page.locator('tr', { hasText: w.name });
        await textOf(
          row,
          /1 not sent: webhook disabled since .+ by a person; kept to be sent once it is enabled again/,
        );
        await row.getByRole('link', { name: 'Enable again…' }).click();
        await textOf(
          page.locator('body'),
          /the 2 events missed while disabled \(.+\) are kept, and this page then offers to send those about this Bundle/,
        );
        await page.getByRole('button', { name: `Enable ${w.name} again` }).click();
        await textOf(
          page.locator('body'),
          `The webhook ${w.name} is enabled again: new events are delivered to it. Kept for it: 2 events missed while disabled`,
        );
        await textOf(row, '1 missed while the webhook was disabled, kept to be sent');
        await row.getByRole('link', { name: 'Send the 1 it missed about this Bundle…' }).click();
        await textOf(
          page.locator('body'),
          `Send the 1 event ${w.name} missed about this Bundle while disabled to ${w.url} now, each once? It missed 1 more event about other Bundles or templates: esign webhook resend-missed ${w.id} sends every one.`,
        );
        await page.getByRole('button', { name: `Send what ${w.name} missed about this Bundle` }).click();
        await textOf(
          page.locator('body'),
          `Sent the 1 event webhook ${w.name} missed while disabled about this Bundle, each once: 1 delivered.`,
        );
        await shot(page, `webhook-missed-sent-${name.replace(' ', '-')}`);
        const events = (await engine.listWebhookEvents({ webhook: w.id })).items;
        expect(events.map((e) => [e.event_type, JSON.parse(e.payload).payload.bundle_id, e.success])).toEqual([
          ['bundle_sent', missed.id, true],
        ]);
        // Sent: the row no longer offers it; the other Bundle's is still kept, as the page said.
        await expect.poll(() => row.getByRole('link', { name: /it missed about this Bundle/ }).count()).toBe(0);
        expect(await engine.listMissedWebhookEvents({ webhook: w.id })).toMatchObject([{ count: 1, dropped: 0 }]);
        expect(await engine.listMissedWebhookEvents({ webhook: w.id, bundle: other.id })).toMatchObject([{ count: 1 }]);
        await page.context().close();
      } finally {
        receiverUp = false;
        await engine.deleteWebhook(w.id);
        await engine.cancelBundle(other.id);
      }
    },
    60_000,
  );

  it('a read-only console shows what was missed and offers no way to send it', async () => {
    const w = await engine.createWebhook({ name: 'Quiet', url: 'http://127.0.0.1:9/q', event_types: ['bundle_sent'] });
    await engine.updateWebhook(w.id, { enabled: false });
    const missed = await newBundle('Missed read-only', [{ name: 'Lu Chen', email: 'lu.chen@example.com' }]);
    await engine.updateWebhook(w.id, { enabled: true });
    try {
      const page = await readOnly.signIn(browser);
      await bundlePage(readOnly, page, missed.id);
      const row = page.locator('tr', { hasText: 'Quiet' });
      await textOf(row, '1 missed while the webhook was disabled, kept to be sent');
      expect(await row.getByRole('link').count()).toBe(0);
      const post = await page.request.get(
        `${readOnly.origin}/console/bundles/${missed.id}/webhook/${w.id}/resend-missed`,
      );
      expect(post.status()).toBe(403);
      await page.context().close();
    } finally {
      await engine.deleteWebhook(w.id);
    }
  });

  it('is listed as not sent, since when and after how many failures, and is enabled again from there', async () => {
    const w = await engine.createWebhook({
      name: 'Ledger',
      url: 'http://127.0.0.1:9/hook',
      event_types: ['bundle_sent'],
    });
    const since = new Date(Date.now() - 2 * 3600_000).toISOString();
    engine.db
      .prepare('UPDATE webhooks SET enabled = 0, disabled_at = ?, disabled_after = 10 WHERE id = ?')
      .run(since, w.id);
    try {
      const door = doors['esign console'];
      const page = await door.signIn(browser, { timezoneId: 'UTC' });
      await bundlePage(door, page, lease.id);
      const row = page.locator('tr', { hasText: 'Ledger' });
      await textOf(row, /1 not sent: webhook disabled since .+ after 10 failures in a row/);
      // The CRM webhook's delivery names it.
      await textOf(page.locator('li.hook').first(), 'to webhook CRM sync');
      await row.getByRole('link', { name: 'Enable again…' }).click();
      await page.getByRole('button', { name: 'Enable Ledger again' }).click();
      await textOf(page.locator('body'), 'The webhook Ledger is enabled again');
      expect((await engine.getWebhook(w.id)).enabled).toBe(true);
    } finally {
      await engine.deleteWebhook(w.id);
    }
  });
});

describe('a timeline of several days', () => {
  /** "Dec 03 10:42:05" in `zone`, worked out apart from the code under test. */
  const datedIn = (iso: string, zone: string) => {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        month: 'short',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(new Date(iso))
        .map((x) => [x.type, x.value]),
    );
    return `${p.month} ${p.day} ${p.hour}:${p.minute}:${p.second}`;
  };

  it.each(['esign console', 'esign serve'] as const)(
    "%s: dates every row, the last day's too, in the viewer's zone and in UTC",
    async (name) => {
      const b = await newBundle(`Two days ${name}`, [{ name: 'Ana Ruiz', email: 'ana.ruiz@example.com' }]);
      try {
        engine.clock.advance(26 * 3600_000);
        await engine.remindPacket(b.packets[0]!.id);
        const zone = 'Asia/Tokyo';
        const page = await doors[name].signIn(browser, { timezoneId: zone });
        await bundlePage(doors[name], page, b.id);
        const rows = page.locator('#timeline > li > time');
        // Each row's time and its text read together: the page is live, and a row that arrived between
        // two reads (esign serve's background work on this engine's events) once made them disagree.
        const check = async (z: string) => {
          const shown = await rows.evaluateAll((ts) => ts.map((t) => [(t as HTMLTimeElement).dateTime, t.textContent]));
          expect(shown.length).toBeGreaterThanOrEqual(4);
          expect(shown.map(([, text]) => text)).toEqual(shown.map(([iso]) => datedIn(iso!, z)));
        };
        await check(zone);
        await page.getByRole('button', { name: 'Show UTC' }).click();
        await check('UTC');
        await shot(page, `timeline-days-${name.replace(' ', '-')}`);
        await page.context().close();
      } finally {
        engine.clock.setOffset(0);
        await engine.cancelBundle(b.id);
      }
    },
    60_000,
  );
});
