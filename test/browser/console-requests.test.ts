// The console's request log page in headless Chromium: esign serve's requests, newest first, the
// key's id (never the key), filtered as `esign logs tail` filters them, with no serious or critical
// accessibility violation; a filter it cannot apply is said, not applied.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { apiCaller } from '../engineServer.js';
import { bundleRequest, newEngine } from '../helpers.js';
import { launchChromium } from './harness.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let engine: ReturnType<typeof newEngine>;
let app: FastifyInstance;
let base: string;
let browser: Browser;
let key: { key: string; id: string };

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const r = await page.evaluate(async () =>
    (
      window as unknown as {
        axe: { run: (o: unknown) => Promise<{ violations: { id: string; impact: string }[] }> };
      }
    ).axe.run({ resultTypes: ['violations'] }),
  );
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

beforeAll(async () => {
  engine = newEngine();
  const made = engine.keys.create('support');
  key = { key: made.key, id: made.record.id };
  app = await buildServer({
    service: engine,
    local: engine,
    authenticate: (k) => engine.keys.authenticate(k),
    console: {},
  });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  engine.setPublicUrl(base);
  browser = await launchChromium();
  const call = apiCaller(base, key.key);
  const b = await engine.createBundle(bundleRequest());
  expect((await call(`/api/v2/bundles/${b.id}/`)).status).toBe(200);
  expect((await call('/api/v2/bundles/nosuchbundle/')).status).toBe(404);
  expect((await call('/sandbox/clock/advance/', { method: 'POST', json: { ms: 1000 } })).status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await engine?.dispose();
});

describe('the console: Requests', () => {
  it("shows esign serve's requests, filtered, newest first, with the key's id only", async () => {
    const page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
    await page.goto(`${base}/console/`);
    await page.getByLabel('API key').fill(key.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Find a Bundle' }).waitFor();
    await page.getByRole('link', { name: 'Requests' }).click();
    await page.getByRole('heading', { name: 'Requests' }).waitFor();
    const paths = async () => page.locator('table.list tbody tr td:nth-child(5)').allTextContents();
    await expect
      .poll(paths)
      .toEqual(expect.arrayContaining(['/sandbox/clock/advance/', '/api/v2/bundles/nosuchbundle/']));
    const all = await paths();
    expect(all.indexOf('/sandbox/clock/advance/')).toBeLessThan(all.indexOf('/api/v2/bundles/nosuchbundle/'));
    expect(await page.content()).not.toContain(key.key);
    expect(await page.locator('table.list').textContent()).toContain(key.id);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Status').fill('4xx');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('4xx');
    const rows = page.locator('table.list tbody tr');
    expect(await rows.count()).toBe(1);
    expect((await rows.first().locator('td').allTextContents()).slice(1, 6)).toEqual([
      'GET',
      '404',
      expect.stringMatching(/^[\d.]+ ms$/),
      '/api/v2/bundles/nosuchbundle/',
      'getBundle',
    ]);

    await page.goto(`${base}/console/requests?status=42`);
    expect(await page.getByRole('alert').textContent()).toContain('status: A status (404) or a class of them (4xx).');
    expect(await rows.count()).toBe(0);
  }, 60_000);
});
