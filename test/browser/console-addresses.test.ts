// A signer's address on the console's Bundle page reads whole: a long address with hyphens is never
// broken at them, nor a Bundle id in the outbox ("marc-" over "andre.dupont@northwind-" over "legal.example.com"). Real Chromium,
// `esign console` spawned from the built binary.
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { CONTRACT_B64, programEnv, tempDir } from '../helpers.js';
import { consoleDoor, type Door, seen, stopDoors } from './consoleDoors.js';
import { launchChromium } from './harness.js';

const work = tempDir('esign-console-addr-');
const LONG = 'marc-andre.dupont@northwind-legal-and-partners.example.com';
let browser: Browser;
let door: Door;
let slug = '';

beforeAll(async () => {
  const env = { ...programEnv(), HOME: work.dir, ESIGN_DATA_DIR: join(work.dir, 'data') };
  const engine = new LocalEngine({ dataDir: env.ESIGN_DATA_DIR });
  const b = await engine.createBundle({
    label: 'Master services agreement',
    packets: [{ key: 'm', name: 'Marc-André Dupont', email: LONG }],
    documents: [{ key: 'contract', file_b64: CONTRACT_B64, filename: 'contract.pdf' }],
  });
  slug = b.id;
  await engine.close();
  [browser, door] = await Promise.all([launchChromium(), consoleDoor(env)]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopDoors([door]);
  work.cleanup();
});

it('shows a long hyphenated address on one line, in a narrow window too', async () => {
  for (const width of [1100, 760]) {
    const page = await door.signIn(browser, { viewport: { width, height: 800 } });
    await page.goto(`${door.origin}/console/bundles/${slug}`);
    const addr = page.locator('#signers-h ~ * .addr, .addr').filter({ hasText: LONG });
    await seen(addr);
    // An inline element broken across lines has a box per line.
    expect(await addr.first().evaluate((el) => el.getClientRects().length), `at ${width}px`).toBe(1);
    // The outbox's Bundle column: the id on one line, never cut across two.
    await page.goto(`${door.origin}/console/outbox?bundle=${slug}`);
    const id = page.locator('td code', { hasText: slug });
    await seen(id);
    expect(await id.first().evaluate((el) => el.getClientRects().length), `outbox at ${width}px`).toBe(1);
    await page.context().close();
  }
}, 120_000);
