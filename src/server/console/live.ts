// Live: an open Bundle page is told when its Bundle changed, over server-sent events. A backend
// that can watch its data (the local engine: its change watch sees other processes' writes too)
// drives it; any other is polled at a pace its rate limit allows. The page then fetches itself.
// The page's stream URL carries a digest of what the page showed: a change made between the page's
// making and its stream's opening (or while its stream was reconnecting) is told at once, not lost.
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { type Inspection, inspectBundle } from '../../app/inspection.js';
import { evenPaceMs, RATE_SHARES } from '../../app/rateBudget.js';
import type { Bundle } from '../../service/types.js';
import type { EsignService } from '../../service/service.js';
import { bundleUrl } from './find.js';

export interface LiveOptions {
  /** Shortest pause between two checks of a remote backend. */
  minPollMs: number;
  /** Pause between keep-alive comments (proxies close a quiet stream). */
  heartbeatMs: number;
  /** Open streams at most, over all sessions. */
  maxStreams: number;
  /** Open streams at most of one session (its browser's tabs), so one session cannot take them all. */
  maxStreamsPerSession: number;
}

export const DEFAULT_LIVE: LiveOptions = {
  minPollMs: 5_000,
  heartbeatMs: 20_000,
  maxStreams: 64,
  maxStreamsPerSession: 8,
};

/** Requests of one remote check: the Bundle and its audit events. */
const REQUESTS_PER_CHECK = 2;
/** A burst of changes (a signer signing writes several rows) is looked at once. */
const SETTLE_MS = 150;

/** How often a backend without a change watch is checked: at most the console's share of its rate limit. */
export async function pollPaceMs(service: EsignService, o: LiveOptions): Promise<number> {
  try {
    const pace = evenPaceMs(await service.getRateLimit(), REQUESTS_PER_CHECK, RATE_SHARES.consolePolling);
    if (pace !== undefined) return Math.max(o.minPollMs, pace);
  } catch {
    // No rate-limit status: the minimum pace.
  }
  return o.minPollMs;
}

const headOf = (b: Bundle) =>
  [b.status, b.doc_status, ...b.packets.map((p) => `${p.id}:${p.status}:${p.last_accessed_at}`)].join('|');

/** What the page shows changes when this does: in full where a change watch makes checks cheap. */
function fingerprintOf(r: Inspection, full: boolean): string {
  const head = headOf(r.bundle);
  if (!full) return `${head}|${r.timeline.filter((e) => e.source === 'event').length}`;
  const hooks = r.webhook_events.map((e) => `${e.pk}:${e.deliveries.length}:${e.success}`).join(',');
  return `${head}|${r.timeline.length}|${r.files?.length ?? -1}|${hooks}`;
}

/** The same fingerprint read from the backend: without a watch, two requests (the Bundle, its events). */
async function fingerprint(service: EsignService, slug: string, full: boolean): Promise<string> {
  const b = await service.getBundle(slug);
  if (!full) return `${headOf(b)}|${(await service.listBundleEvents(slug)).length}`;
  return fingerprintOf(await inspectBundle(service, b), true);
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

export class LiveStreams {
  private open = 0;
  private readonly bySession = new Map<string, number>();
  private readonly ends = new Set<() => void>();
  constructor(
    private readonly service: EsignService,
    readonly o: LiveOptions,
    private readonly pace: () => Promise<number>,
  ) {}

  /** The stream URL of a page that shows `r`. */
  urlFor(r: Inspection): string {
    return `${bundleUrl(r.bundle.id)}/live?seen=${digest(fingerprintOf(r, Boolean(this.service.watchBundles)))}`;
  }

  /**
   * Answers with an event stream that sends `change` each time the Bundle's fingerprint moves; at
   * once when it is no longer the one `seen` digests (what the page showed).
   */
  async stream(reply: FastifyReply, slug: string, session: string, seen?: string): Promise<void> {
    const watch = this.service.watchBundles?.bind(this.service);
    const mine = this.bySession.get(session) ?? 0;
    if (this.open >= this.o.maxStreams || mine >= this.o.maxStreamsPerSession) {
      const why = mine >= this.o.maxStreamsPerSession ? ' in this session' : '';
      reply.code(429).header('Retry-After', '30').type('text/plain').send(`Too many live pages open${why}.`);
      return;
    }
    // Counted before the first await: streams opened at once are all counted.
    this.open++;
    this.bySession.set(session, mine + 1);
    const release = () => {
      this.open--;
      const left = (this.bySession.get(session) ?? 1) - 1;
      if (left) this.bySession.set(session, left);
      else this.bySession.delete(session);
    };
    // Watched before the first read: a commit while it reads is looked at after it, not lost (a
    // watcher's start is its baseline).
    let changedMeanwhile = false;
    let onChange = () => void (changedMeanwhile = true);
    const unwatch = watch?.(() => onChange());
    let last: string;
    try {
      last = await fingerprint(this.service, slug, Boolean(watch));
    } catch (e) {
      unwatch?.();
      release();
      throw e;
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      Connection: 'keep-alive',
    });
    const stale = seen !== undefined && seen !== digest(last);
    res.write(
      `retry: 3000\n: watching ${watch ? 'changes' : 'by polling'}\n\n${stale ? `event: change\ndata: ${Date.now()}\n\n` : ''}`,
    );
    let closed = false;
    let timer: NodeJS.Timeout | undefined;
    let checking = false;
    let again = false;
    const check = async () => {
      if (checking) return void (again = true);
      checking = true;
      try {
        const now = await fingerprint(this.service, slug, Boolean(watch));
        if (!closed && now !== last) {
          last = now;
          res.write(`event: change\ndata: ${Date.now()}\n\n`);
        }
      } catch (e) {
        // The backend refusing the console's key is not the Bundle gone: the page says which.
        if (!closed) res.write(`event: ${e instanceof ApiError && e.status === 401 ? 'refused' : 'gone'}\ndata: 0\n\n`);
      } finally {
        checking = false;
        if (again && !closed) {
          again = false;
          void check();
        }
      }
    };
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), this.o.heartbeatMs);
    let stop: () => void;
    if (unwatch) {
      onChange = () => {
        if (!timer)
          timer = setTimeout(() => {
            timer = undefined;
            void check();
          }, SETTLE_MS);
      };
      if (changedMeanwhile) onChange();
      stop = () => {
        unwatch();
        clearTimeout(timer);
      };
    } else {
      const every = await this.pace();
      const poll = setInterval(() => void check(), every);
      stop = () => clearInterval(poll);
    }
    const end = () => res.end();
    this.ends.add(end);
    res.once('close', () => {
      closed = true;
      release();
      this.ends.delete(end);
      clearInterval(heartbeat);
      stop();
    });
  }

  /** Ends every open stream (the server is closing: it waits for open connections). */
  closeAll(): void {
    for (const end of [...this.ends]) end();
  }
}
