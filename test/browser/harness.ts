// What the page tests share: esign serve's app in-process on a fresh engine, another origin that
// embeds a page in an iframe and receives redirects, and headless Chromium.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium } from 'playwright-core';
import { findChromium } from '../../src/local/documents/intake/html.js';
import { buildServer } from '../../src/server/app.js';
import type { AccountFeature } from '../../src/domain/enums.js';
import { newEngine } from '../helpers.js';

/**
 * Headless Chromium with the flags every browser test runs with (nothing reaching out): the build the
 * HTML renderer finds (Debian's chromium-headless-shell, which takes half the CPU of the full browser).
 */
export const launchChromium = () =>
  chromium.launch({
    executablePath: findChromium(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });

export interface PageHarness {
  engine: ReturnType<typeof newEngine>;
  app: FastifyInstance;
  base: string;
  browser: Browser;
  /** The embedding app's origin: `/app` frames `frame.src`, `/done...` is a redirect target. */
  outerBase: string;
  frame: { src: string };
  /** URLs that reached `/done` on the embedding app. */
  redirected: string[];
  close(): Promise<void>;
}

export async function startPageHarness(o: {
  features: AccountFeature[];
  frameId: string;
  frameSize: [number, number];
}): Promise<PageHarness> {
  const engine = newEngine();
  engine.account.setFeatures(o.features, true);
  const app = await buildServer({ service: engine, local: engine, authenticate: (k) => engine.keys.authenticate(k) });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  engine.setPublicUrl(base);
  const frame = { src: '' };
  const redirected: string[] = [];
  const outer: Server = createServer((req, res) => {
    if (req.url === '/app')
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<!doctype html><title>Embedding app</title><h1>Embedding app</h1><iframe id="${o.frameId}" src="${frame.src}" width="${o.frameSize[0]}" height="${o.frameSize[1]}"></iframe>`,
        );
    else if (req.url?.startsWith('/done')) {
      redirected.push(req.url);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p id="back">Back in the app</p>');
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => outer.listen(0, '127.0.0.1', resolve));
  const browser = await launchChromium();
  return {
    engine,
    app,
    base,
    browser,
    frame,
    redirected,
    outerBase: `http://127.0.0.1:${(outer.address() as AddressInfo).port}`,
    close: async () => {
      await browser.close();
      await app.close();
      await new Promise<void>((resolve) => outer.close(() => resolve()));
      await engine.dispose();
    },
  };
}
