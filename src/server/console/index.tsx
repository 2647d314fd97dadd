// The support console: routes and pages over the port (EsignService), never the engine. Mounted
// by `esign serve` at /console/ (signed in with an API key) and served alone by `esign console`
// over either backend (signed in with a one-time URL). Every change is a POST with a CSRF token;
// `readOnly` refuses them all.
import { parse as parseCookies, serialize as cookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ComponentChildren } from 'preact';
import { getBundleOrPacketsBundle } from '../../app/bundleRef.js';
import { ApiError } from '../../service/errors.js';
import { inspectBundle } from '../../app/inspection.js';
import { bundleOfPayload } from '../../service/webhookEvents.js';
import { operationNamed } from '../../service/operations.js';
import type { EsignService } from '../../service/service.js';
import type { BundleMessage, WebhookEvent } from '../../service/types.js';
import { builtFile, cached, registerPdfJs } from '../pages/assets.js';
import { type Door, openDoors } from '../doors.js';
import { BundlePage } from './bundle.js';
import { bundleUrl, FindPage, findQuery, listQueryOf } from './find.js';
import { CONSOLE_PREFIX, type Frame, securePage, sendConsolePage } from './layout.js';
import { DEFAULT_LIVE, type LiveOptions, LiveStreams, pollPaceMs } from './live.js';
import { ConfirmPage, ErrorPage, OutboxPage, SignInPage, VerifyPage, WebhooksPage } from './pages.js';
import { ConsoleSessions, csrfMatches, type Session, type SessionTiming } from './sessions.js';

export { CONSOLE_PREFIX } from './layout.js';

export interface ConsoleOptions {
  service: EsignService;
  /** The serve door: an API key signs in (returns the key's id, or undefined). */
  authenticateKey?: (key: string) => string | undefined;
  /** Look, never change: every POST but sign-in, sign-out and verify is refused. */
  readOnly?: boolean;
  /** The backend in words, shown in the header. */
  backend?: string;
  /** Host headers accepted (DNS rebinding): a predicate; absent, any. */
  allowedHost?: (host: string) => boolean;
  timing?: Partial<SessionTiming>;
  live?: Partial<LiveOptions>;
}

export interface ConsoleHandle {
  /** A one-time sign-in path (`/console/login?token=...`). */
  signInPath(): string;
  readonly sessions: ConsoleSessions;
}

const COOKIE = 'esign_console';
const FORM_BYTES = 16 * 1024;
const OUTBOX_BUNDLES = 20;
const READ_ONLY = 'This console is read-only: it can look, not change anything.';

/** The session of a request that passed the sign-in check. */
const sessionOf = new WeakMap<FastifyRequest, Session>();

const field = (req: FastifyRequest, name: string): string => {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : '';
};
const param = (req: FastifyRequest, name: string) => (req.params as Record<string, string>)[name] ?? '';

/** What every part of the console shares: the port, the options, the sessions and how pages are sent. */
interface Console {
  o: ConsoleOptions;
  s: EsignService;
  sessions: ConsoleSessions;
  live: LiveStreams;
  readOnly: boolean;
  now: () => number;
  /** The live pace on a backend without `watchBundles`, asked once. */
  paceMs: () => Promise<number>;
  page: (
    req: FastifyRequest,
    reply: FastifyReply,
    status: number,
    title: string,
    body: ComponentChildren,
    current?: Frame['current'],
  ) => FastifyReply;
  problem: (req: FastifyRequest, reply: FastifyReply, status: number, title: string, message: string) => FastifyReply;
}

/** The console as a door of a server (esign serve's), and the handle to its sign-in. */
export function consoleDoor(o: ConsoleOptions): { door: Door; handle: ConsoleHandle } {
  const sessions = new ConsoleSessions(o.timing);
  const liveOptions = { ...DEFAULT_LIVE, ...o.live };
  let pace: Promise<number> | undefined;
  const paceMs = () => (pace ??= pollPaceMs(o.service, liveOptions));
  const live = new LiveStreams(o.service, liveOptions, paceMs);
  const readOnly = o.readOnly === true;
  const frameOf = (req: FastifyRequest, current?: Frame['current']): Frame => ({
    csrf: sessionOf.get(req)?.csrf,
    readOnly,
    backend: o.backend,
    current,
  });
  const page: Console['page'] = (req, reply, status, title, body, current) =>
    sendConsolePage(reply, status, title, frameOf(req, current), body, (req as Timed).startedAt);
  const c: Console = {
    o,
    s: o.service,
    sessions,
    live,
    readOnly,
    now: () => sessions.timing.now(),
    paceMs,
    page,
    problem: (req, reply, status, title, message) =>
      page(req, reply, status, title, <ErrorPage title={title} message={message} back={`${CONSOLE_PREFIX}/`} />),
  };

  const door: Door = {
    name: 'console',
    paths: [CONSOLE_PREFIX],
    notFound: 'There is no such page in the console.',
    answer: (req, reply, e) => answerProblem(c, req, reply, e),
    register: async (app) => {
      app.addHook('preClose', async () => live.closeAll());
      await app.register(
        async (scope) => {
          registerFormParser(scope);
          registerGuards(scope, c);
          registerAssets(scope);
          registerSignIn(scope, c);
          registerFind(scope, c);
          registerBundle(scope, c);
          registerActions(scope, c);
          registerLists(scope, c);
        },
        { prefix: CONSOLE_PREFIX },
      );
    },
  };
  return { door, handle: { sessions, signInPath: () => `${CONSOLE_PREFIX}/login?token=${sessions.issueToken()}` } };
}

/** The console alone on `app` (esign console): its one door. */
export async function registerConsole(app: FastifyInstance, o: ConsoleOptions): Promise<ConsoleHandle> {
  const { door, handle } = consoleDoor(o);
  await openDoors(app, [door]);
  return handle;
}

/** What went wrong, as a page for people (the Error object for a caller that asks for JSON). */
function answerProblem(c: Console, req: FastifyRequest, reply: FastifyReply, e: ApiError): FastifyReply {
  if ((req.headers.accept ?? '').includes('application/json'))
    return reply.type('application/json; charset=utf-8').send(e.toWire());
  const title =
    e.status === 404
      ? 'Not found'
      : e.status === 409
        ? 'Not possible now'
        : e.status === 403
          ? 'Not allowed'
          : 'Something went wrong';
  return c.problem(req, reply, e.status, title, e.message);
}

/** Forms of this scope only: small, urlencoded, every member a string. */
function registerFormParser(scope: FastifyInstance) {
  if (scope.hasContentTypeParser('application/x-www-form-urlencoded'))
    scope.removeContentTypeParser('application/x-www-form-urlencoded');
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BYTES },
    (_req, text, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(text))));
    },
  );
}

/** The Host check, the sign-in check, the CSRF check and the pages for what goes wrong. */
function registerGuards(scope: FastifyInstance, c: Console) {
  const { o, sessions, problem } = c;
  scope.addHook('onRequest', async (req, reply) => {
    (req as Timed).startedAt = performance.now();
    if (o.allowedHost && !o.allowedHost(req.headers.host ?? ''))
      return reply.code(421).type('text/plain').send('Misdirected request.');
    const path = req.url.split('?')[0];
    if (path.startsWith(`${CONSOLE_PREFIX}/assets/`) || path === `${CONSOLE_PREFIX}/login`) return;
    const session = sessions.get(parseCookies(req.headers.cookie ?? '')[COOKIE]);
    if (session) return void sessionOf.set(req, session);
    if (req.method === 'GET' || req.method === 'HEAD')
      return reply.code(303).header('Location', `${CONSOLE_PREFIX}/login`).send();
    return problem(req, reply, 401, 'Signed out', 'Your session has ended: sign in again.');
  });
  // Every POST of a session carries its CSRF token, from a page of this origin.
  scope.addHook('preHandler', async (req, reply) => {
    const session = sessionOf.get(req);
    if (req.method !== 'POST' || !session) return;
    const origin = req.headers.origin;
    const sameOrigin = !origin || origin === `${req.protocol}://${req.headers.host}`;
    if (!sameOrigin || !csrfMatches(session, field(req, 'csrf') || req.headers['x-csrf-token']))
      return problem(
        req,
        reply,
        403,
        'Not allowed',
        'This form has expired or did not come from this console: go back and try again.',
      );
  });
}

/** Static files: the console's script and stylesheet, and PDF.js beside them. */
function registerAssets(scope: FastifyInstance) {
  scope.get('/assets/console.js', async (_req, reply) =>
    cached(reply, 'text/javascript; charset=utf-8').send(builtFile('console.js')),
  );
  scope.get('/assets/console.css', async (_req, reply) =>
    cached(reply, 'text/css; charset=utf-8').send(builtFile('console.css')),
  );
  registerPdfJs(scope, '/assets');
}

/** Sign-in and sign-out. */
function registerSignIn(scope: FastifyInstance, c: Console) {
  const { o, sessions, page } = c;
  const startSession = (reply: FastifyReply, session: Session) =>
    reply
      .code(303)
      .header(
        'Set-Cookie',
        cookie(COOKIE, session.id, {
          httpOnly: true,
          sameSite: 'strict',
          path: CONSOLE_PREFIX,
          maxAge: Math.floor(sessions.timing.sessionTtlMs / 1000),
        }),
      )
      .header('Location', `${CONSOLE_PREFIX}/`)
      .header('Referrer-Policy', 'no-referrer')
      .send();
  scope.get('/login', async (req, reply) => {
    const token = (req.query as Record<string, unknown>).token;
    if (typeof token === 'string' && token) {
      const session = sessions.redeem(token.slice(0, 100));
      if (session) return startSession(reply, session);
      return page(
        req,
        reply,
        403,
        'Sign in',
        <SignInPage
          keyForm={Boolean(o.authenticateKey)}
          message="This sign-in link has been used or has expired. Each link works once."
        />,
      );
    }
    return page(req, reply, 200, 'Sign in', <SignInPage keyForm={Boolean(o.authenticateKey)} />);
  });
  scope.post('/login', async (req, reply) => {
    const key = field(req, 'key').trim().slice(0, 200);
    if (o.authenticateKey && key && o.authenticateKey(key)) return startSession(reply, sessions.open());
    return page(
      req,
      reply,
      401,
      'Sign in',
      <SignInPage
        keyForm={Boolean(o.authenticateKey)}
        message={o.authenticateKey ? 'That API key is not valid.' : 'Sign in with the link esign console printed.'}
      />,
    );
  });
  scope.post('/logout', async (req, reply) => {
    sessions.close(parseCookies(req.headers.cookie ?? '')[COOKIE]);
    return reply
      .code(303)
      .header('Set-Cookie', cookie(COOKIE, '', { httpOnly: true, sameSite: 'strict', path: CONSOLE_PREFIX, maxAge: 0 }))
      .header('Location', `${CONSOLE_PREFIX}/login`)
      .send();
  });
}

/** Find: a search over the Bundles, or straight to the Bundle of a packet id. */
function registerFind(scope: FastifyInstance, { s, page, now }: Console) {
  scope.get('/', async (req, reply) => {
    const f = findQuery(req.query as Record<string, unknown>);
    const notes: string[] = [];
    const found = await s.listBundles(listQueryOf(f));
    if (f.q && found.total === 0 && f.page === 1) {
      // A packet id leads to its Bundle where the backend can tell.
      if (s.bundleOfPacket) {
        const slug = await s.bundleOfPacket(f.q).catch(() => undefined);
        if (slug) return reply.code(303).header('Location', bundleUrl(slug)).send();
      } else notes.push('This backend cannot find a Bundle by packet id: search by slug, email, custom_key or label.');
    }
    return page(req, reply, 200, 'Find', <FindPage f={f} page={found} now={now()} notes={notes} />, 'find');
  });
}

/** A Bundle (or the Bundle of a packet id), its live stream and its files. */
function registerBundle(scope: FastifyInstance, { s, page, now, readOnly, live, paceMs }: Console) {
  const liveWords = async () =>
    s.watchBundles
      ? 'Live: this page updates itself when the Bundle changes.'
      : `Live: checked every ${Math.round((await paceMs()) / 1000)} s, a pace the backend's rate limit allows.`;
  scope.get('/bundles/:slug', async (req, reply) => {
    const slug = param(req, 'slug');
    const bundle = await getBundleOrPacketsBundle(s, slug);
    if (bundle.id !== slug) return reply.code(303).header('Location', bundleUrl(bundle.id)).send();
    const [r, data] = await Promise.all([
      inspectBundle(s, bundle),
      s.getBundleData(bundle.id).catch((e: unknown) => {
        if (e instanceof ApiError && e.status === 409) return e.message;
        throw e;
      }),
    ]);
    const done = DONE[String((req.query as Record<string, unknown>).done)];
    return page(
      req,
      reply,
      200,
      bundle.label || bundle.id,
      <BundlePage r={r} data={data} now={now()} readOnly={readOnly} live={await liveWords()} done={done} />,
    );
  });
  scope.get('/bundles/:slug/live', async (_req, reply) => live.stream(reply, param(_req, 'slug')));
  scope.get('/bundles/:slug/files/:n', async (req, reply) => {
    const files = await s.getBundleFiles(param(req, 'slug'));
    const f = files[Number(param(req, 'n'))];
    if (!f || !/^\d+$/.test(param(req, 'n'))) throw new ApiError(404, 'not_found', 'No such file.');
    const name = f.name ?? 'file.pdf';
    const pdf = /\.pdf$/i.test(name) || f.kind !== 'document';
    return securePage(reply.type(pdf ? 'application/pdf' : 'application/octet-stream'))
      .header('Content-Disposition', `${pdf ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(name)}`)
      .send(await s.openFileLink(f.file_url));
  });
}

interface Confirmation {
  title: string;
  text: string;
  danger?: boolean;
}

/**
 * An action: a confirmation page (GET), then the change (POST), then back to the Bundle. Each names
 * the port operation it runs: the operations table says what it does to the world.
 */
function registerAction(
  scope: FastifyInstance,
  { s, page, problem, readOnly }: Console,
  path: string,
  opName: keyof EsignService & string,
  confirm: (req: FastifyRequest) => Promise<Confirmation>,
  run: (req: FastifyRequest) => Promise<string>,
) {
  const op = operationNamed(opName);
  if (!op) throw new Error(`console: no operation named ${opName}`);
  const refused = readOnly && op.effect !== 'read';
  scope.get(path, async (req, reply) => {
    if (refused) return problem(req, reply, 403, 'Read-only', READ_ONLY);
    const c = await confirm(req);
    const people = op.reachesPeople
      ? ` ${s.capabilities.sendsForReal ? 'A real person receives it.' : 'It goes to the outbox.'}`
      : '';
    return page(
      req,
      reply,
      200,
      c.title,
      <ConfirmPage
        {...c}
        text={`${c.text}${people}`}
        action={req.url.split('?')[0]}
        csrf={sessionOf.get(req)!.csrf}
        back={bundleUrl(param(req, 'slug'))}
      />,
    );
  });
  scope.post(path, async (req, reply) => {
    if (refused) return problem(req, reply, 403, 'Read-only', READ_ONLY);
    const done = await run(req);
    return reply
      .code(303)
      .header('Location', `${bundleUrl(param(req, 'slug'))}?done=${done}`)
      .send();
  });
}

/** Cancel a Bundle, remind a signer, resend a webhook delivery. */
function registerActions(scope: FastifyInstance, c: Console) {
  const { s } = c;
  const packetOf = async (req: FastifyRequest) => {
    const b = await s.getBundle(param(req, 'slug'));
    const p = b.packets.find((x) => x.id === param(req, 'packet'));
    if (!p) throw new ApiError(404, 'not_found', 'No such signer in this Bundle.');
    return { b, p };
  };
  const eventOf = async (req: FastifyRequest): Promise<WebhookEvent> => {
    const e = await s.getWebhookEvent(param(req, 'event'));
    if (bundleOfPayload(e.payload) !== param(req, 'slug'))
      throw new ApiError(404, 'not_found', 'No such webhook event for this Bundle.');
    return e;
  };
  registerAction(
    scope,
    c,
    '/bundles/:slug/cancel',
    'cancelBundle',
    async (req) => {
      const b = await s.getBundle(param(req, 'slug'));
      return {
        title: 'Cancel the Bundle',
        danger: true,
        text: `Cancel "${b.label || b.id}"? Its signers can no longer sign, and this cannot be undone.`,
      };
    },
    async (req) => {
      await s.cancelBundle(param(req, 'slug'));
      return 'cancelled';
    },
  );
  registerAction(
    scope,
    c,
    '/bundles/:slug/packets/:packet/remind',
    'remindPacket',
    async (req) => {
      const { p } = await packetOf(req);
      return {
        title: `Remind ${p.name}`,
        text: `Send ${p.name} a reminder now, by ${p.deliver_via === 'phone' ? `SMS to ${p.phone}` : `email to ${p.email}`}?`,
      };
    },
    async (req) => {
      const { p } = await packetOf(req);
      await s.remindPacket(p.id);
      return 'reminded';
    },
  );
  registerAction(
    scope,
    c,
    '/bundles/:slug/webhook-events/:event/resend',
    'resendWebhookEvent',
    async (req) => {
      const e = await eventOf(req);
      return {
        title: 'Resend the delivery',
        text: `Deliver the ${e.event_type} event (${e.pk}) again now, whatever its state?`,
      };
    },
    async (req) => {
      const e = await eventOf(req);
      await s.resendWebhookEvent(e.pk);
      return 'resent';
    },
  );
}

/** Webhooks (failures first), the outbox and verify. */
function registerLists(scope: FastifyInstance, { s, page, now, readOnly }: Console) {
  scope.get('/webhooks', async (req, reply) => {
    const [hooks, failing, recent] = await Promise.all([
      s.listWebhooks({ per_page: 100 }),
      s.listWebhookEvents({ success: false, per_page: 25 }),
      s.listWebhookEvents({ per_page: 25 }),
    ]);
    return page(
      req,
      reply,
      200,
      'Webhooks',
      <WebhooksPage
        hooks={hooks.items}
        failing={failing.items}
        recent={recent.items.filter((e) => e.success)}
        now={now()}
        readOnly={readOnly}
      />,
      'webhooks',
    );
  });

  // The outbox: where the backend shows the messages it sends.
  scope.get('/outbox', async (req, reply) => {
    if (!s.listBundleMessages)
      return page(
        req,
        reply,
        200,
        'Outbox',
        <OutboxPage
          messages={[]}
          now={now()}
          unavailable="This backend does not show the messages it sends: the outbox is the local engine's."
        />,
        'outbox',
      );
    const recent = await s.listBundles({ per_page: OUTBOX_BUNDLES });
    const lists = await Promise.all(recent.items.map((b) => s.listBundleMessages!(b.id)));
    const messages = lists
      .flat()
      .sort((a: BundleMessage, b: BundleMessage) => b.created.localeCompare(a.created) || b.id - a.id);
    return page(req, reply, 200, 'Outbox', <OutboxPage messages={messages} now={now()} />, 'outbox');
  });

  // Verify: the browser sends only the SHA-256 it computed.
  scope.get('/verify', async (req, reply) =>
    page(req, reply, 200, 'Verify', <VerifyPage csrf={sessionOf.get(req)!.csrf} />, 'verify'),
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
      <VerifyPage csrf={sessionOf.get(req)!.csrf} hash={hash} result={result} />,
      'verify',
    );
  });
}

const DONE: Record<string, string> = {
  cancelled: 'The Bundle was cancelled.',
  reminded: 'The reminder was sent.',
  resent: 'The delivery was sent again.',
};

interface Timed {
  startedAt?: number;
}
