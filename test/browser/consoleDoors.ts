// The support console's two doors as a person meets them, for browser tests: `esign console` (a
// one-time sign-in link) and `esign serve`'s /console/ (an API key), both spawned from the built
// binary on one data directory, with headless Chromium and axe-core.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import type { Browser, BrowserContextOptions, Cookie, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { BIN } from '../cli/serveProcess.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const SHOTS = join(import.meta.dirname, '..', '..', 'docs', 'console');

export interface Door {
  name: 'esign console' | 'esign serve';
  origin: string;
  /** A page signed in through this door, in a new browser context. */
  signIn(browser: Browser, o?: BrowserContextOptions): Promise<Page>;
  proc: ResultPromise;
  /** What the process has written to stderr so far. */
  stderr(): string;
}

/** `esign console` with `args`: its address on stdout, a one-time sign-in URL on stderr (one per run). */
export async function consoleDoor(env: Record<string, string>, args: string[] = []): Promise<Door> {
  const proc = execa('node', [BIN, 'console', '--port', '0', ...args], { env, reject: false });
  let err = '';
  const signInUrl: string = await bounded(
    proc,
    'esign console did not print its sign-in link',
    () => err,
    new Promise((resolve, reject) => {
      proc.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /Sign in \(this link works once\): (\S+)/.exec(err);
        if (m) resolve(m[1]!);
      });
      proc.once('exit', () => reject(new Error(`esign console exited: ${err}`)));
    }),
  );
  // The link works once: later sign-ins take the session cookie the first one got.
  let session: Cookie[] | undefined;
  return {
    name: 'esign console',
    origin: new URL(signInUrl).origin,
    proc,
    stderr: () => err,
    async signIn(browser, o) {
      const context = await browser.newContext({ viewport: { width: 1100, height: 860 }, ...o });
      if (session) await context.addCookies(session);
      const page = await context.newPage();
      await page.goto(session ? `${new URL(signInUrl).origin}/console/` : signInUrl);
      session ??= await context.cookies();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/console/');
      return page;
    },
  };
}

/** `esign serve` with `args`; its console signs in with `key`. */
export async function serveDoor(env: Record<string, string>, key: () => string, args: string[] = []): Promise<Door> {
  const proc = execa('node', [BIN, 'serve', '--port', '0', '--rate-limit', '1000000', ...args], { env, reject: false });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const origin: string = await bounded(
    proc,
    'esign serve did not print its address',
    () => err,
    new Promise((resolve, reject) => {
      proc.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
      proc.once('exit', () => reject(new Error(`serve exited early: ${err}`)));
    }),
  );
  return {
    name: 'esign serve',
    origin,
    proc,
    stderr: () => err,
    async signIn(browser, o) {
      const context = await browser.newContext({ viewport: { width: 1100, height: 860 }, ...o });
      const page = await context.newPage();
      await page.goto(`${origin}/console/login`);
      await page.getByLabel('API key').fill(key());
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/console/');
      return page;
    },
  };
}

/** What a door may take to start, or to end after SIGTERM: past it, the test fails saying which and where. */
const DOOR_BOUND_MS = 30_000;

/** `step`, or a failure naming `what` and the process's stderr once DOOR_BOUND_MS passes (the process killed). */
async function bounded<T>(proc: ResultPromise, what: string, stderr: () => string, step: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${what} within ${DOOR_BOUND_MS / 1000} s; its stderr: ${stderr()}`));
    }, DOOR_BOUND_MS);
  });
  try {
    return await Promise.race([step, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function stopDoors(doors: (Door | undefined)[]): Promise<void> {
  const running = doors.filter((d): d is Door => d !== undefined);
  for (const d of running) d.proc.kill('SIGTERM');
  await Promise.all(
    running.map((d) =>
      bounded(
        d.proc,
        `${d.name} did not end on SIGTERM`,
        d.stderr,
        d.proc.catch(() => undefined),
      ),
    ),
  );
}

/** Waits until the locator is visible (playwright-core has no expect of its own). */
export const seen = (l: Locator, timeout = 15_000) => l.first().waitFor({ state: 'visible', timeout });
/**
 * Waits until the locator's text contains `text`. Each look is short (Playwright would wait 30 s for an
 * element that is not there), so a page that never shows it fails here, at `timeout`, saying what it showed.
 */
export const textOf = (l: Locator, text: string | RegExp, timeout = 15_000) =>
  expect
    .poll(
      async () =>
        (await l
          .first()
          .textContent({ timeout: 1_000 })
          .catch(() => '')) ?? '',
      { timeout },
    )
    .toMatch(typeof text === 'string' ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : text);

/** axe-core's serious and critical violations on the page as it is. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (o: unknown) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
      }
    ).axe;
    return axe.run({ resultTypes: ['violations'] });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`);
}

/** axe in the light scheme and the dark one, on the page as it is. */
export async function axeBothSchemes(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    found.push(...(await axeViolations(page)).map((v) => `${colorScheme}: ${v}`));
  }
  await page.emulateMedia({ colorScheme: null });
  return found;
}

/** A screenshot for docs/console, taken when asked for (ESIGN_SCREENSHOTS=1): a test run leaves docs/ as it is. */
export async function shot(page: Page, name: string, colorScheme: 'light' | 'dark' = 'light'): Promise<void> {
  if (process.env.ESIGN_SCREENSHOTS !== '1') return;
  await page.emulateMedia({ colorScheme });
  await page.screenshot({ path: join(SHOTS, `${name}${colorScheme === 'dark' ? '-dark' : ''}.png`), fullPage: false });
  await page.emulateMedia({ colorScheme: null });
}
