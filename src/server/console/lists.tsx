// Webhooks (failures first, each webhook's health), the outbox and verify: every list with its
// total and pages, a page past the end an empty page that says so.
import type { FastifyInstance } from 'fastify';
import { similarAddresses } from '../../app/similarAddresses.js';
import { webhookHealth } from '../../app/webhookHealth.js';
import { MAX_PER_PAGE } from '../../domain/enums.js';
import { ApiError } from '../../domain/errors.js';
import { parseRequestFilter } from '../../service/requestLog.js';
import type { Page, RequestFilter, RequestLogEntry } from '../../service/types.js';
import { CONSOLE_PREFIX } from './layout.js';
import { OutboxPage, outboxFilter, VerifyPage, WebhooksPage } from './pages.js';
import { REQUESTS_SHOWN, RequestsPage } from './requests.js';
import { type Console, field, pageNumber, queryOf, sessionOf } from './scope.js';

const LIST_PAGE = 25;
/** How far back a recipient that finds nothing is compared with others: the newest 1,000 messages, as in the terminal. */
const SIMILAR_PAGES = 10;

/**
 * Page `page` of a list, or, past its end, an empty page that still says how long the list is (the
 * API answers 404 there; a person who followed an old link gets a page that says so).
 */
export async function pageOrEmpty<T>(fetch: (page: number) => Promise<Page<T>>, page: number): Promise<Page<T>> {
  try {
    return await fetch(page);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404 && page > 1)) throw e;
    const first = await fetch(1);
    return { ...first, items: [], page };
  }
}

/** A list page's URL with one of its page numbers changed. */
const withPage = (path: string, query: Record<string, unknown>, key: string) => (n: number) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (typeof v === 'string' && k !== key) p.set(k, v);
  if (n > 1) p.set(key, String(n));
  const s = p.toString();
  return `${path}${s ? `?${s}` : ''}`;
};

export function registerLists(scope: FastifyInstance, { s, page, now, readOnly }: Console) {
  scope.get('/webhooks', async (req, reply) => {
    const q = queryOf(req);
    const [hooks, failing, recent] = await Promise.all([
      pageOrEmpty((n) => s.listWebhooks({ page: n, per_page: LIST_PAGE }), pageNumber(q.hooks)),
      pageOrEmpty((n) => s.listWebhookEvents({ success: false, page: n, per_page: LIST_PAGE }), pageNumber(q.failing)),
      pageOrEmpty((n) => s.listWebhookEvents({ page: n, per_page: LIST_PAGE }), pageNumber(q.page)),
    ]);
    const health = await Promise.all(hooks.items.map((h) => webhookHealth(s, h.id)));
    const url = (key: string) => withPage(`${CONSOLE_PREFIX}/webhooks`, q, key);
    return page(
      req,
      reply,
      200,
      'Webhooks',
      <WebhooksPage
        hooks={hooks}
        health={health}
        failing={failing}
        recent={recent}
        urls={{ hooks: url('hooks'), failing: url('failing'), recent: url('page') }}
        now={now()}
        readOnly={readOnly}
      />,
      'webhooks',
    );
  });

  // The outbox: where the backend shows the messages it sends.
  scope.get('/outbox', async (req, reply) => {
    const q = queryOf(req);
    const filter = outboxFilter(q);
    const list = s.listMessages?.bind(s);
    const only = Object.fromEntries(Object.entries(filter).filter(([, v]) => v));
    const messages = list
      ? await pageOrEmpty((n) => list({ page: n, per_page: LIST_PAGE, ...only }), pageNumber(q.page))
      : undefined;
    // A recipient that finds nothing: the newest messages' addresses a typo away from it.
    const seen: string[] = [];
    if (list && messages && !messages.total && filter.to)
      for (let n = 1; n <= SIMILAR_PAGES; n++) {
        const more = (await list({ page: n, per_page: MAX_PER_PAGE, ...only, to: undefined })).items;
        seen.push(...more.map((m) => m.recipient));
        if (more.length < MAX_PER_PAGE) break;
      }
    const similar = filter.to ? similarAddresses(filter.to, seen) : [];
    return page(
      req,
      reply,
      200,
      'Outbox',
      <OutboxPage
        messages={messages}
        filter={filter}
        similar={similar}
        url={withPage(`${CONSOLE_PREFIX}/outbox`, q, 'page')}
        now={now()}
        readOnly={readOnly}
        unavailable={
          messages ? undefined : "This backend does not show the messages it sends: the outbox is the local engine's."
        }
      />,
      'outbox',
    );
  });

  // The request log: what esign serve answered, as `esign logs tail` shows it.
  scope.get('/requests', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const raw = { status: q.status, method: q.method, path: q.path, operation: q.operation };
    const show = (body: Parameters<typeof RequestsPage>[0]) =>
      page(req, reply, 200, 'Requests', <RequestsPage {...body} />, 'requests');
    if (!(await s.describeSandbox()).request_log)
      return show({
        entries: [],
        filter: {},
        now: now(),
        unavailable: 'This backend keeps no request log: esign serve does.',
      });
    let filter: RequestFilter;
    try {
      filter = parseRequestFilter(raw);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      return show({ entries: [], filter: raw, now: now(), problem: e.message });
    }
    const entries: RequestLogEntry[] = [];
    await s.followRequests({ filter, backlog: REQUESTS_SHOWN, follow: false }, (e) => entries.push(e));
    return show({ entries: entries.reverse(), filter, now: now() });
  });

  // Verify: the browser sends only the SHA-256 it computed.
  scope.get('/verify', async (req, reply) =>
    page(req, reply, 200, 'Verify', <VerifyPage csrf={sessionOf.get(req)!.csrf} now={now()} />, 'verify'),
  );
  scope.post('/verify', async (req, reply) => {
    const hash = field(req, 'hash').trim().slice(0, 200);
    const result = await s.verify(hash);
    if ((req.headers.accept ?? '').includes('application/json')) return reply.send(result);
    return page(
      req,
      reply,
      200,
      'Verify',
      <VerifyPage csrf={sessionOf.get(req)!.csrf} hash={hash} result={result} now={now()} />,
      'verify',
    );
  });
}
