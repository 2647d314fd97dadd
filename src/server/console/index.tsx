// The support console: routes and pages over the port (EsignService), never the engine. Mounted
// by `esign serve` at /console/ (signed in with an API key) and served alone by `esign console`
// over either backend (signed in with a one-time URL). Every change is a POST with a CSRF token;
// `readOnly` refuses them all.
import { parse as parseCookies, serialize as cookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getBundleOrPacketsBundle } from '../../app/bundleRef.js';
import { findBundles } from '../../app/bundleSearch.js';
import { bundleFilesZip, filesZipName } from '../../app/filesZip.js';
import { inspectBundle } from '../../app/inspection.js';
import { ApiError } from '../../domain/errors.js';
import { builtFile, cached, registerPdfJs } from '../pages/assets.js';
import { type Door, openDoors } from '../doors.js';
import { registerActions } from './actions.js';
import { BundlePage } from './bundle.js';
import { bundleUrl, FindPage, findQuery, listQueryOf } from './find.js';
import { CONSOLE_PREFIX, type Frame, type PageStart, securePage, sendConsolePage } from './layout.js';
import { pageOrEmpty, registerLists } from './lists.js';
import { DEFAULT_LIVE, LiveStreams, pollPaceMs } from './live.js';
import { ErrorPage, SignInPage } from './pages.js';
import { type Console, type ConsoleOptions, field, param, queryOf, sessionOf } from './scope.js';
import { ConsoleSessions, csrfMatches, type Session, SignInThrottle } from './sessions.js';

export { CONSOLE_PREFIX } from './layout.js';

export type { ConsoleOptions } from './scope.js';

export interface ConsoleHandle {
  /** A one-time sign-in path (`/console/login?token=...`). */
  signInPath(): string;
  readonly sessions: ConsoleSessions;
}

const COOKIE = 'esign_console';
const FORM_BYTES = 16 * 1024;
const SIGNED_OUT = 'Your session has ended: sign in again.';

/** The console as a door of a server (esign serve's), and the handle to its sign-in. */
export function consoleDoor(o: ConsoleOptions): { door: Door; handle: ConsoleHandle } {
  const sessions = new ConsoleSessions(o.timing);
  const liveOptions = { ...DEFAULT_LIVE, ...o.live };
  let pace: Promise<number> | undefined;
  const paceMs = () => (pace ??= pollPaceMs(o.service, liveOptions));
  const live = new LiveStreams(o.service, liveOptions, paceMs);
  const readOnly = o.readOnly === true;
  const now = () => o.service.clockMs?.() ?? Date.now();
  const frameOf = (req: FastifyRequest, current?: Frame['current']): Frame => ({
    csrf: sessionOf.get(req)?.csrf,
    readOnly,
    backend: o.backend,
    current,
    now: now(),
  });
  const page: Console['page'] = (req, reply, status, title, body, current) =>
    sendConsolePage(reply, status, title, frameOf(req, current), body, (req as Timed).started);
  const c: Console = {
    o,
    s: o.service,
    sessions,
    signIns: new SignInThrottle(),
    live,
    readOnly,
    now,
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
  // The backend refused the console's own key (revoked or expired): the session ends with it.
  if (e.status === 401 && sessionOf.has(req)) {
    const why = `The backend refused this console's API key: ${e.message}`;
    const id = parseCookies(req.headers.cookie ?? '')[COOKIE];
    // A page the browser shows says why; a request behind a page (its live stream, a part fetched to
    // update it) leaves the reason for this browser's next page.
    c.sessions.close(id, (req.headers.accept ?? '').includes('text/html') ? undefined : why);
    sessionOf.delete(req);
    return c.problem(req, reply, 401, 'Signed out', why);
  }
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
    (req as Timed).started = { at: performance.now(), cpu: process.cpuUsage() };
    if (o.allowedHost && !o.allowedHost(req.headers.host ?? ''))
      return problem(
        req,
        reply,
        421,
        'Misdirected request',
        'This console answers its own address only (esign serve --console-host names others).',
      );
    const path = req.url.split('?')[0];
    if (path.startsWith(`${CONSOLE_PREFIX}/assets/`) || path === `${CONSOLE_PREFIX}/login`) return;
    const id = parseCookies(req.headers.cookie ?? '')[COOKIE];
    const session = sessions.get(id);
    // A session signed in with an API key lasts no longer than the key: revoked, it ends here.
    if (session?.keyId && o.keyIsLive && !o.keyIsLive(session.keyId)) sessions.close(id);
    else if (session) return void sessionOf.set(req, session);
    const why = sessions.takeEndReason(id);
    if (why) return problem(req, reply, 401, 'Signed out', why);
    if (req.method === 'GET' || req.method === 'HEAD')
      return reply.code(303).header('Location', `${CONSOLE_PREFIX}/login`).send();
    return problem(req, reply, 401, 'Signed out', SIGNED_OUT);
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
  /** A sign-in refused for a while (too many failures from this address, or for this key prefix). */
  const throttled = (req: FastifyRequest, reply: FastifyReply, wait: number) =>
    page(
      req,
      reply.header('Retry-After', String(wait)),
      429,
      'Sign in',
      <SignInPage
        keyForm={Boolean(o.authenticateKey)}
        message={`Too many failed sign-ins: try again in ${wait} seconds.`}
      />,
    );
  scope.get('/login', async (req, reply) => {
    const token = (req.query as Record<string, unknown>).token;
    if (typeof token === 'string' && token) {
      const wait = c.signIns.waitSeconds(req.ip);
      if (wait) return throttled(req, reply, wait);
      const session = sessions.redeem(token.slice(0, 100));
      if (session) return startSession(reply, session);
      c.signIns.failed(req.ip);
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
    const wait = c.signIns.waitSeconds(req.ip, key);
    if (wait) return throttled(req, reply, wait);
    const keyId = o.authenticateKey && key ? o.authenticateKey(key) : undefined;
    if (keyId) return startSession(reply, sessions.open(keyId));
    c.signIns.failed(req.ip, key);
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
    // The terminal's rule (app/bundleSearch.ts); a packet id leads straight to its Bundle.
    let packetOf: string | undefined;
    const found = await pageOrEmpty(async (page) => {
      const r = await findBundles(s, listQueryOf({ ...f, page }));
      packetOf = r.packetOf;
      return r.page;
    }, f.page);
    if (packetOf && found.total === 1) return reply.code(303).header('Location', bundleUrl(packetOf)).send();
    return page(req, reply, 200, 'Find', <FindPage f={f} page={found} now={now()} notes={[]} />, 'find');
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
    // The outcome of the action that led here, shown once (a reload or a live update does not repeat it).
    const session = sessionOf.get(req)!;
    const flash = session.flash;
    session.flash = undefined;
    return page(
      req,
      reply,
      200,
      bundle.label || bundle.id,
      <BundlePage
        r={r}
        data={data}
        now={now()}
        readOnly={readOnly}
        live={await liveWords()}
        liveUrl={live.urlFor(r)}
        flash={flash}
      />,
    );
  });
  // What the page showed, as its stream URL says (a digest: anything else is a change to tell).
  const seenOf = (req: FastifyRequest) => {
    const seen = queryOf(req).seen;
    return typeof seen === 'string' ? seen.slice(0, 64) : undefined;
  };
  scope.get('/bundles/:slug/live', async (req, reply) =>
    live.stream(reply, param(req, 'slug'), sessionOf.get(req)?.id ?? '', seenOf(req)),
  );
  scope.get('/bundles/:slug/files.zip', async (req, reply) => {
    const slug = param(req, 'slug');
    const zip = await bundleFilesZip(s, slug);
    return securePage(reply.type('application/zip'))
      .header('Content-Disposition', `attachment; filename="${filesZipName(slug)}"`)
      .send(zip);
  });
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

interface Timed {
  started?: PageStart;
}
