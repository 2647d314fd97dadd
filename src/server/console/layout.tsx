// The console's page frame: one layout, the CSP (no inline script or style at all), the reply.
// Rendered by preact-render-to-string, as the signing pages are: every text and attribute is
// escaped by the renderer, so a hostile label or file name is only ever text.
import type { FastifyReply } from 'fastify';
import type { ComponentChildren } from 'preact';
import { exactTime, type TimeStyle, timeIn } from '../../app/timeWords.js';
import type { Page } from '../../service/types.js';
import { BASE_CSP, Head, pageHeaders, sendHtml } from '../pages/kit.js';

export const CONSOLE_PREFIX = '/console';
const CONSOLE_ASSETS = `${CONSOLE_PREFIX}/assets`;

const CSP = [
  ...BASE_CSP,
  `connect-src 'self'`,
  `worker-src 'self'`,
  `object-src 'none'`,
  `frame-ancestors 'none'`,
  `base-uri 'none'`,
  `form-action 'self'`,
].join('; ');

/** What every signed-in page shows in its frame. */
export interface Frame {
  csrf?: string;
  readOnly?: boolean;
  /** The backend in words ("the local engine", "https://api.example.com"). */
  backend?: string;
  /** Which nav item is current. */
  current?: 'find' | 'outbox' | 'webhooks' | 'requests' | 'verify';
  /** The backend's clock when the page was made: the page's script measures relative times against it. */
  now: number;
}

/**
 * Times are rendered in UTC, named so; the page's script draws them again in the viewer's zone (or
 * UTC, as they choose: the switch in the header) with the one rule of app/timeWords.ts.
 */
export const RENDER_ZONE = 'UTC';

const NAV: [NonNullable<Frame['current']>, string, string][] = [
  ['find', 'Find', `${CONSOLE_PREFIX}/`],
  ['outbox', 'Outbox', `${CONSOLE_PREFIX}/outbox`],
  ['webhooks', 'Webhooks', `${CONSOLE_PREFIX}/webhooks`],
  ['requests', 'Requests', `${CONSOLE_PREFIX}/requests`],
  ['verify', 'Verify', `${CONSOLE_PREFIX}/verify`],
];

function Layout({ title, frame, children }: { title: string; frame: Frame; children: ComponentChildren }) {
  return (
    <html lang="en">
      <Head
        title={`${title} · esign console`}
        referrer="same-origin"
        stylesheet={`${CONSOLE_ASSETS}/console.css`}
        script={`${CONSOLE_ASSETS}/console.js`}
      >
        {frame.csrf && <meta name="csrf-token" content={frame.csrf} />}
      </Head>
      <body data-now={String(frame.now)}>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header>
          <p class="brand">esign support console</p>
          <p class="zone">
            <span id="zone-name">Times in UTC</span>{' '}
            <button type="button" id="zone-switch" class="secondary" hidden>
              Show UTC
            </button>
          </p>
          {frame.csrf && (
            <nav aria-label="Console">
              <ul>
                {NAV.map(([key, label, href]) => (
                  <li>
                    <a href={href} aria-current={frame.current === key ? 'page' : undefined}>
                      {label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          {frame.csrf && (
            <form method="post" action={`${CONSOLE_PREFIX}/logout`} class="signout">
              <input type="hidden" name="csrf" value={frame.csrf} />
              {frame.backend && (
                <span class="backend">
                  {frame.backend}
                  {frame.readOnly ? ' · read-only' : ''}
                </span>
              )}
              <button type="submit" class="secondary">
                Sign out
              </button>
            </form>
          )}
        </header>
        <main id="main" tabIndex={-1}>
          {children}
        </main>
      </body>
    </html>
  );
}

/**
 * When a request arrived, and the process's CPU time then: a page says how long it took to make,
 * in wall time and in CPU time (which other work on a shared machine does not lengthen; the
 * process's, so it counts other requests served meanwhile too).
 */
export interface PageStart {
  at: number;
  cpu: NodeJS.CpuUsage;
}

/**
 * A page under the console's CSP, never cached, with how long the server took to make it. Referrers
 * go to this origin only: with none at all, browsers send `Origin: null` on a form POST, and the
 * console checks the Origin of every change.
 */
export function sendConsolePage(
  reply: FastifyReply,
  status: number,
  title: string,
  frame: Frame,
  body: ComponentChildren,
  started?: PageStart,
): FastifyReply {
  if (started) {
    const cpu = process.cpuUsage(started.cpu);
    reply.header(
      'Server-Timing',
      `page;dur=${(performance.now() - started.at).toFixed(2)}, cpu;dur=${((cpu.user + cpu.system) / 1000).toFixed(2)}`,
    );
  }
  return sendHtml(securePage(reply), status, <Layout title={title} frame={frame} children={body} />);
}

export const securePage = (reply: FastifyReply): FastifyReply =>
  pageHeaders(reply, CSP, 'same-origin')
    .header('X-Frame-Options', 'DENY')
    .header('Cross-Origin-Opener-Policy', 'same-origin');

/** A state code as words, with the code kept for people who know it (and for tests). */
export function State({ word, code }: { word: string; code: string }) {
  return (
    <span class={`state s-${code.replace(/[^a-z]/g, '')}`} data-code={code}>
      {word}
    </span>
  );
}

/**
 * A time in words ("5m ago"), or with `clock` to the second ("10:42:05": on a timeline, words would
 * call every step of a busy minute "just now"); the exact time on hover, the ISO time for machines.
 */
export function When({
  iso,
  now,
  clock,
  style: given,
}: {
  iso: string | null | undefined;
  now: number;
  clock?: boolean;
  style?: TimeStyle;
}) {
  if (!iso) return <span class="none">—</span>;
  const style: TimeStyle = given ?? (clock ? 'clock' : 'relative');
  return (
    <time dateTime={iso} data-style={style} title={exactTime(iso, RENDER_ZONE)}>
      {timeIn(style, iso, now, RENDER_ZONE)}
    </time>
  );
}

/** A table of rows under a row of column names (a `false` name: a column left out). */
export function ListTable(p: { heads: (string | false)[]; extra?: string; children: ComponentChildren }) {
  return (
    <table class={p.extra ? `list ${p.extra}` : 'list'}>
      <thead>
        <tr>{p.heads.map((h) => h !== false && <th scope="col">{h}</th>)}</tr>
      </thead>
      <tbody>{p.children}</tbody>
    </table>
  );
}

/** A table cell of one time (see When). */
export const WhenCell = (p: { iso: string | null | undefined; now: number }) => (
  <td>
    <When {...p} />
  </td>
);

/** A table cell of one state (see State). */
export const StateCell = (p: { word: string; code: string }) => (
  <td>
    <State {...p} />
  </td>
);

/**
 * A list's count and its pages: "Page 2 of 40", the pages either side, and past the end the way
 * back to the last page.
 */
export function Pager({ page, url, label }: { page: Page<unknown>; url: (n: number) => string; label: string }) {
  const past = page.page > page.total_pages;
  if (page.total_pages <= 1 && !past) return null;
  return (
    <nav class="pager" aria-label={label}>
      {page.page > 1 && !past ? (
        <a href={url(page.page - 1)} rel="prev">
          Previous page
        </a>
      ) : (
        <span />
      )}
      <span>
        {past
          ? `Page ${page.page.toLocaleString('en')} is past the end: there ${page.total_pages === 1 ? 'is 1 page' : `are ${page.total_pages.toLocaleString('en')} pages`}.`
          : `Page ${page.page.toLocaleString('en')} of ${page.total_pages.toLocaleString('en')}`}
      </span>
      {past ? (
        <a href={url(page.total_pages)}>Last page</a>
      ) : page.page < page.total_pages ? (
        <a href={url(page.page + 1)} rel="next">
          Next page
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** "1 Bundle", "2,345 Bundles". */
export const countOf = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
