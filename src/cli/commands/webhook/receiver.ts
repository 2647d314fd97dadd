// esign webhook listen: a local receiver for webhook deliveries. Each delivery is verified with the
// raw body, printed as one line (or one JSON object) on stdout, answered 200 (401 when the signature
// fails, so the sender records the failure and retries) and, with --forward-to, POSTed on unchanged.
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadUndici } from '../../../lazyImport.js';
import type { Factory } from '../../factory.js';
import { secondsArg } from '../../duration.js';
import type { OptionsOf } from '../../verb.js';
import type { listen } from './listen.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { note } from '../../output/print.js';
import { commaList, intArg } from '../../run.js';
import { safeJson, safeLine } from '../../../app/sanitize.js';
import { environment } from '../../../app/environment.js';
import { receiveDelivery } from '../../../app/webhookReceipt.js';
import { announceReady } from '../../ready.js';

/** The flags of `esign webhook listen`, as its verb declares them (a type only: nothing is loaded back). */
type ListenOptions = OptionsOf<typeof listen>;

/** What one delivery printed as JSON looks like. */
interface Received {
  received: string;
  verified: boolean;
  reason: string | null;
  message?: string;
  event: Record<string, unknown> | null;
  forward?: { status: number } | { error: string };
  status: number;
}

const MAX_BODY = 5 * 1024 * 1024;
/** Not passed on when forwarding: they describe the connection, not the delivery. */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-connection',
  'proxy-authorization',
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A member of the (untrusted) body as one printable line. */
const field = (o: unknown, key: string) =>
  isObject(o) && o[key] !== undefined && o[key] !== null ? safeLine(o[key]) : '';

export async function run(ctx: Factory, o: ListenOptions): Promise<void> {
  const { port, toleranceS, count, only, path } = listenSettings(o);
  // An empty ESIGN_WEBHOOK_SECRET is unset (as for webhook verify), not a secret no delivery matches.
  const secret =
    o.secret ?? (environment(ctx.env).webhookSecret || (await (await ctx.service()).getWebhookSecret()).secret);
  const undici = o.forwardTo ? await loadUndici() : undefined;
  const json = ctx.options.json === true;
  const chalk = ctx.io.out.isTTY && !json ? await ctx.io.colour('out') : undefined;

  let seen = 0;
  let verified = 0;
  // A forged delivery must not end a `--count` wait (a CI step would pass on it): only verified ones count.
  const counted = () => (o.countAll ? seen : verified);
  let stopping = false;
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = () => {
      stopping = true;
      resolve();
    };
  });

  const print = printer(ctx, chalk);

  const forward = undici ? forwarder(ctx, undici, o.forwardTo!) : undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const reply = (status: number, text: string) =>
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`${text}\n`);
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== path) return reply(404, 'Not found');
    if (req.method !== 'POST') return res.writeHead(405, { allow: 'POST' }).end();
    const receipt = await receiveDelivery(req, { secret, maxBytes: MAX_BODY, toleranceS });
    if (!receipt) return reply(413, 'Body too large');
    const { raw, check, event } = receipt;
    const type = event?.event_type;
    if (only && typeof type === 'string' && !only.has(type)) return reply(200, 'Skipped');
    if (stopping || (count !== undefined && counted() >= count)) return reply(503, 'No longer listening');
    seen++;
    const r: Received = { received: new Date().toISOString(), verified: check.ok, reason: null, event, status: 200 };
    if (!check.ok) Object.assign(r, { reason: check.reason, message: check.message, status: 401 });
    else if (!event)
      Object.assign(r, {
        reason: 'unparseable_body',
        message: 'The body is not a JSON event (nor a form with a JSON payload).',
        status: 400,
      });
    else {
      verified++;
      if (o.forwardTo) {
        const f = await forward!(req, raw);
        r.forward = f;
        r.status = f && 'status' in f ? f.status : 502;
      }
    }
    print(r);
    if (count !== undefined && counted() >= count) res.once('finish', stop);
    reply(r.status, answerText(r));
  };

  /** Deliveries being handled: stopping waits for them, so none is cut off after it was forwarded. */
  const inFlight = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    const done: Promise<void> = handle(req, res)
      .then(
        () => undefined,
        (e) => {
          note(ctx, `esign: ${(e as Error).message}`);
          if (!res.headersSent) res.writeHead(500).end();
        },
      )
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  });
  await listenOn(server, o.host, port);
  // Stopping is possible from the moment readiness is said: the signals are heard first.
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const unannounce = await announceListening(ctx, o, server, path).catch(async (e: unknown) => {
    await drain(server, inFlight);
    throw e;
  });
  await stopped;
  process.removeListener('SIGINT', stop);
  process.removeListener('SIGTERM', stop);
  await drain(server, inFlight);
  await unannounce();
  note(ctx, `Received ${seen} deliver${seen === 1 ? 'y' : 'ies'}, ${verified} verified.`);
}

/** Where it listens, for people (stderr) and for scripts (--json: on stderr, stdout is for deliveries; --ready-file). */
function announceListening(ctx: Factory, o: ListenOptions, server: Server, path: string) {
  const a = server.address() as AddressInfo;
  const host = a.family === 'IPv6' || a.address.includes(':') ? `[${a.address}]` : a.address;
  const url = `http://${host}:${a.port}${path}`;
  // With --json the ready line (on stderr) says it, for a script.
  if (!ctx.options.json) note(ctx, `Listening on ${url}${o.forwardTo ? ` (forwarding to ${o.forwardTo})` : ''}`);
  return announceReady(ctx, { url, forward_to: o.forwardTo ?? null }, o.readyFile, 'err');
}

type Chalk = Awaited<ReturnType<Factory['io']['colour']>>;
type Undici = Awaited<ReturnType<typeof loadUndici>>;

/** The text of the answer to the sender. */
const answerText = (r: Received) =>
  r.status === 401
    ? (r.message ?? 'Bad signature')
    : r.status < 300
      ? 'OK'
      : (r.message ?? `Forward answered ${r.status}`);

/** The flags, checked. */
function listenSettings(o: ListenOptions) {
  const port = intArg(o.port, '--port', 0);
  if (port > 65535) throw new CliError(`--port must be at most 65535, got ${port}.`, EXIT.USAGE);
  const toleranceS = secondsArg(o.tolerance, '--tolerance');
  const count = o.count !== undefined ? intArg(o.count, '--count', 1) : undefined;
  const only = o.events ? new Set(commaList(o.events)) : undefined;
  const path = o.path.startsWith('/') ? o.path : `/${o.path}`;
  if (o.forwardTo !== undefined && !/^https?:\/\/[^/]/.test(o.forwardTo))
    throw new CliError(`--forward-to expects an http or https URL, got "${o.forwardTo}".`, EXIT.USAGE);
  if (o.secret === '')
    throw new CliError('--secret is empty: give the webhook secret (esign webhook secret shows it).', EXIT.USAGE);
  return { port, toleranceS, count, only, path };
}

/** How one delivery is printed: a JSON object, an event id (-q), or a line of cells. */
function printer(ctx: Factory, chalk: Chalk | undefined) {
  const json = ctx.options.json === true;
  return (r: Received) => {
    if (json) return void ctx.io.out.write(`${safeJson(r)}\n`);
    // -q: the ids of the verified events, one per line (for `esign webhook event ID`, say).
    if (ctx.options.quiet)
      return void (
        r.verified &&
        r.event &&
        field(r.event, 'event_id') &&
        ctx.io.out.write(`${field(r.event, 'event_id')}\n`)
      );
    const outcome = r.verified && !r.reason ? 'verified' : (r.reason ?? 'failed');
    const fwd = r.forward ? ('status' in r.forward ? `forwarded ${r.forward.status}` : 'forward failed') : undefined;
    const cells = [
      r.received,
      field(r.event, 'event_type'),
      field(r.event?.payload, 'bundle_id'),
      field(r.event?.payload, 'packet_id'),
      field(r.event, 'event_id'),
      chalk ? (outcome === 'verified' ? chalk.green(outcome) : chalk.red(outcome)) : outcome,
      ...(fwd ? [fwd] : []),
    ];
    ctx.io.out.write(`${cells.join(chalk ? '  ' : '\t')}\n`);
  };
}

/** POSTs a delivery on unchanged (but for the connection's own headers): the answer's status, or why it failed. */
function forwarder(ctx: Factory, undici: Undici, to: string) {
  return async (req: IncomingMessage, raw: Buffer): Promise<Received['forward']> => {
    const headers: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      if (!HOP_HEADERS.has(req.rawHeaders[i].toLowerCase())) headers.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
    try {
      const r = await undici.request(to, {
        method: 'POST',
        headers,
        body: raw,
        signal: AbortSignal.timeout(10_000),
      });
      await r.body.dump();
      return { status: r.statusCode };
    } catch (e) {
      const err = e as Error & { code?: string; cause?: { code?: string } };
      const message = `${err.message}${(err.code ?? err.cause?.code) ? ` (${err.code ?? err.cause?.code})` : ''}`;
      note(ctx, `esign: forwarding to ${to} failed: ${message}`);
      return { error: message };
    }
  };
}

function listenOn(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new CliError(
          `Cannot listen on ${host}:${port}: ${e.code === 'EADDRINUSE' ? 'the port is in use' : e.message}`,
          1,
        ),
      ),
    );
    server.listen(port, host, resolve);
  });
}

/** No new connections; deliveries under way finish (a forward gives up after 10 s), then the rest is closed. */
async function drain(server: Server, inFlight: Set<Promise<void>>) {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  let waited: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.allSettled([...inFlight]),
    new Promise((resolve) => (waited = setTimeout(resolve, 15_000))),
  ]);
  clearTimeout(waited);
  server.closeAllConnections();
  await closed;
}
