// What every HTML page of esign serve (signing, preparation) shares: one layout and stylesheet,
// the CSP, the error and done pages, the list of problems above a refused form, and the replies.
// Pages are JSX rendered to a string by preact-render-to-string, which escapes every text and
// attribute it is given: no page builds HTML by hand.
import { createReadStream } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ComponentChildren, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { visibleControls } from '../../app/sanitize.js';
import type { ApiError } from '../../domain/errors.js';
import { refusalOf } from '../refusals.js';
import { PAGE_ASSETS } from './assets.js';

/** What differs between the signing and the preparation pages. */
export interface PageFamily {
  name: 'signing' | 'preparation';
  /** Its module script. */
  script: string;
  /** CSP directives beyond the shared ones. */
  csp: string[];
  /** Error page titles beyond the shared ones, by HTTP status. */
  titles: Record<number, string>;
}

/** An http(s) URL to redirect to, or undefined for anything else (javascript:, data:, garbage). */
export const httpUrl = (u: string | null | undefined): URL | undefined => {
  if (!u) return undefined;
  try {
    const url = new URL(u);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
};

/** The API error behind a refusal (the engine's, or fastify's 4xx such as a too large upload): the API's translation. */
export const asApiError = (e: unknown): ApiError | undefined => refusalOf(e, {});

/**
 * Scripts and styles only from this server, no inline code at all. No frame-ancestors and no
 * X-Frame-Options: the pages are meant to be framed by other origins. form-action names the
 * redirect's origin too, since Chromium applies form-action to the redirect after a submission.
 */
function csp(family: PageFamily, redirect?: URL): string {
  const formAction = redirect && redirect.origin !== 'null' ? `'self' ${redirect.origin}` : `'self'`;
  return [...BASE_CSP, ...family.csp, `base-uri 'none'`, `form-action ${formAction}`].join('; ');
}

/** The CSP directives every page of esign serve starts from (the support console's too). */
export const BASE_CSP = [
  `default-src 'self'`,
  `script-src 'self'`,
  `style-src 'self'`,
  `img-src 'self' data: blob:`,
  `font-src 'self' data:`,
];

/** What every page's head holds; `children` (more meta) go before the title. */
export function Head(p: {
  title: string;
  referrer: string;
  stylesheet: string;
  script: string;
  children?: ComponentChildren;
}) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width,initial-scale=1" />
      <meta name="referrer" content={p.referrer} />
      {p.children}
      <link rel="icon" href="data:," />
      <title>{p.title}</title>
      <link rel="stylesheet" href={p.stylesheet} />
      <script type="module" src={p.script} />
    </head>
  );
}

/**
 * A page as sent: the doctype, then the markup the renderer escaped, with every control character
 * and bidi override in it shown as a visible mark (the markup itself holds none).
 */
export const sendHtml = (reply: FastifyReply, status: number, page: VNode): FastifyReply =>
  reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(visibleControls(`<!doctype html>${renderToString(page)}`));

/** The headers of every page: its CSP, never cached or sniffed, and how far its URL goes as a referrer. */
export const pageHeaders = (reply: FastifyReply, csp: string, referrer: 'no-referrer' | 'same-origin'): FastifyReply =>
  reply
    .header('Content-Security-Policy', csp)
    .header('Cache-Control', 'private, no-store')
    .header('Referrer-Policy', referrer)
    .header('X-Content-Type-Options', 'nosniff');

function Layout({ family, title, children }: { family: PageFamily; title: string; children: ComponentChildren }) {
  return (
    <html lang="en">
      <Head title={title} referrer="no-referrer" stylesheet={`${PAGE_ASSETS}/page.css`} script={family.script} />
      <body class={family.name}>{children}</body>
    </html>
  );
}

/** A page under its CSP, never cached, never leaking its URL (a token) as a referrer. */
export function sendPage(
  reply: FastifyReply,
  family: PageFamily,
  status: number,
  title: string,
  body: ComponentChildren,
  redirect?: URL,
): FastifyReply {
  pageHeaders(reply, csp(family, redirect), 'no-referrer');
  return sendHtml(reply, status, <Layout family={family} title={title} children={body} />);
}

const TITLES: Record<number, string> = {
  403: 'Not allowed',
  404: 'Link not valid',
  410: 'Link no longer valid',
  413: 'File too large',
};

export function errorPage(reply: FastifyReply, family: PageFamily, e: ApiError): FastifyReply {
  const title = family.titles[e.status] ?? TITLES[e.status] ?? 'Something went wrong';
  return sendPage(
    reply,
    family,
    e.status,
    title,
    <main>
      <section class="done" role="alert">
        <h1>{title}</h1>
        <p class="message">{e.message}</p>
      </section>
    </main>,
  );
}

export const donePage = (
  reply: FastifyReply,
  family: PageFamily,
  title: string,
  children: ComponentChildren,
): FastifyReply =>
  sendPage(
    reply,
    family,
    200,
    title,
    <main>
      <section class="done" id="done">
        <h1>{title}</h1>
        {children}
      </section>
    </main>,
  );

/** After a form: a 303 to where the client application asked, without this page's URL as referrer. */
export const redirectTo = (reply: FastifyReply, to: URL): FastifyReply =>
  reply.code(303).header('Location', to.href).header('Referrer-Policy', 'no-referrer').send();

/** A stored PDF shown inline (never cached: its URL holds a session token). */
export function sendPdf(reply: FastifyReply, path: string, filename: string): FastifyReply {
  const name = /\.pdf$/i.test(filename) ? filename : `${filename}.pdf`;
  return reply
    .type('application/pdf')
    .header('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(name)}`)
    .header('Cache-Control', 'private, no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .send(createReadStream(path));
}

export interface Problem {
  /** Where it is, in words (e.g. "Signer 1 (email)"), when the page can say. */
  where?: string;
  message: string;
}

/** The problems with a submitted form, listed above it (each also marked at its input where the page can). */
export function Problems({ items }: { items: Problem[] }) {
  if (!items.length) return null;
  return (
    <section class="summary" role="alert" id="problems">
      <h2>Please check the form</h2>
      <ul>
        {items.map((p) => (
          <li>
            {p.where && (
              <>
                <strong>{p.where}</strong>:{' '}
              </>
            )}
            {p.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

type PageRun = (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** Runs a page handler; a refusal becomes an error page, except for JSON callers when `jsonErrors` (they get the API's error object). */
export const pageHandler =
  (family: PageFamily, run: PageRun, jsonErrors = false) =>
  async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      return await run(req, reply);
    } catch (e) {
      const api = asApiError(e);
      if (!api || (jsonErrors && req.headers['content-type']?.startsWith('application/json'))) throw e;
      return errorPage(reply, family, api);
    }
  };

/**
 * An onRequest hook for a page that takes a body: `check` (the page's token, the form's type) runs
 * as soon as the headers are in, so a caller without a live token never has a byte of its body
 * read. A refusal is the error page (the API's error object for JSON callers when `jsonErrors`),
 * and the connection closes, since the body was left unread.
 */
export const pageGate =
  (family: PageFamily, check: (req: FastifyRequest) => unknown, jsonErrors = false) =>
  async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      await check(req);
    } catch (e) {
      const api = asApiError(e);
      reply.header('Connection', 'close');
      if (!api || (jsonErrors && req.headers['content-type']?.startsWith('application/json'))) throw e;
      return errorPage(reply, family, api);
    }
  };
