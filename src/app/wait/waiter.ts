// Waits for Bundles to reach a state: reacts at once where the backend can tell it (the local
// engine), else polls with backoff paced by the remote rate limit.
import type { EsignService } from '../../service/service.js';
import { cannotReach, reachedTarget, type WaitTarget } from '../../domain/states.js';
import type { Bundle, RateLimit } from '../../service/types.js';
import { FIRST_STEP_MS, nextPauseMs, type Spent } from '../rateBudget.js';
import { type Outage, outageOf, outagePauseMs } from './outage.js';

/** `processed`: the Bundle's documents are processed (it left `pe`: launched, saved as a draft, or failed). */
type WaiterTarget = WaitTarget | 'processed';

const reached = (target: WaiterTarget, b: Bundle): boolean =>
  target === 'processed' ? b.status !== 'pe' : reachedTarget(target, b);
const unreachable = (target: WaiterTarget, b: Bundle): boolean => target !== 'processed' && cannotReach(target, b);

export interface WaitOptions {
  target: WaiterTarget;
  timeoutMs: number;
  /** Called with every Bundle read so far after each look (for the live lines). */
  onUpdate?: (bundles: Bundle[]) => void;
  /**
   * Told when a look fails in a way that may pass (outage.ts), with what it was and when the next
   * look goes; told `undefined` when a look succeeds again after one.
   */
  onOutage?: (outage: (Outage & { since: number; nextLookAt: number }) | undefined) => void;
  /** Stops the wait early (Ctrl-C). */
  signal?: AbortSignal;
  /** The pacing's first backoff step (default FIRST_STEP_MS; tests shorten it instead of waiting). */
  firstStepMs?: number;
}

export interface WaitResult {
  outcome: 'reached' | 'timeout' | 'unreachable' | 'interrupted';
  /** Every Bundle read (one never read, the server out from the first look, is in `unread`). */
  bundles: Bundle[];
  /** Those that ended where the target can no longer be reached. */
  unreachable: Bundle[];
  /** Those still short of the target (on a timeout). */
  pending: Bundle[];
  /** Ids never read: the server was out from the first look to the end. */
  unread: string[];
  /** What the last look ran into, when the wait ended in an outage. */
  outage?: Outage;
  /** Requests made to look (the remote backend's count matters). */
  looks: number;
}

/** On the local engine nothing moves without a signal; this safety re-read catches any missed one. */
const WATCHED_SAFETY_MS = 5_000;

const LATE = Symbol('past the deadline');

/**
 * Waits until every Bundle reaches the target, one cannot, or the timeout. Through an outage (the
 * server unreachable, 5xx, 429) it keeps looking, paced, until its own timeout: a look that has not
 * answered by the deadline ends the wait as a timeout, however long the backend's own retries take.
 */
export async function waitForBundles(service: EsignService, slugs: string[], o: WaitOptions): Promise<WaitResult> {
  const deadline = Date.now() + o.timeoutMs;
  const firstStepMs = o.firstStepMs ?? FIRST_STEP_MS;
  const current = new Map<string, Bundle>();
  let looks = 0;
  let outage: (Outage & { since: number; tries: number }) | undefined;
  /** Reads `ids` again: 'ok', or 'out' when a look failed in a way that may pass; any other failure is thrown. */
  const refresh = async (ids: string[]): Promise<'ok' | 'out'> => {
    try {
      for (const id of ids) {
        current.set(id, await service.getBundle(id));
        looks++;
      }
    } catch (e) {
      const now = outageOf(e);
      if (!now) throw e;
      outage = { ...now, since: outage?.since ?? Date.now(), tries: (outage?.tries ?? -1) + 1 };
      return 'out';
    }
    if (outage) o.onOutage?.(undefined);
    outage = undefined;
    return 'ok';
  };
  /** A look, or LATE when the deadline comes first (the look is left to finish unheard). */
  const look = (ids: string[]): Promise<'ok' | 'out' | typeof LATE> => beforeDeadline(refresh(ids), deadline);
  const known = () => slugs.flatMap((id) => current.get(id) ?? []);
  const open = () => slugs.filter((id) => !current.has(id) || !reached(o.target, current.get(id)!));
  const stuck = () => slugs.some((id) => current.has(id) && unreachable(o.target, current.get(id)!));
  const result = (outcome: WaitResult['outcome']): WaitResult => {
    const bundles = known();
    return {
      outcome,
      bundles,
      looks,
      unreachable: bundles.filter((b) => unreachable(o.target, b)),
      pending: bundles.filter((b) => !reached(o.target, b)),
      unread: slugs.filter((id) => !current.has(id)),
      ...(outage ? { outage: { what: outage.what } } : {}),
    };
  };

  // Watched before the first look: a commit during it wakes the next look (a watcher's start is its baseline).
  const watch = service.watchBundles ? changeSignal(service.watchBundles.bind(service)) : undefined;
  let state: Awaited<ReturnType<typeof look>>;
  try {
    state = await look(slugs);
  } catch (e) {
    watch?.stop();
    throw e;
  }
  let rate: RateLimit | undefined;
  const spent: Spent = { inWindow: looks, sinceRead: 0 };
  let rateRead = false;
  const readRate = async () => {
    rateRead = true;
    const was = rate;
    const read = await beforeDeadline(
      service.getRateLimit().catch(() => rate),
      deadline,
    );
    rate = read === LATE ? rate : read;
    spent.sinceRead = 0;
    // A new window: the wait's share of it is whole again.
    if (was && rate && rate.reset > was.reset) spent.inWindow = 0;
  };
  if (!watch && state === 'ok') await readRate();
  try {
    for (let round = 0; ; round++) {
      if (state === LATE) return result('timeout');
      if (state === 'ok') {
        o.onUpdate?.(known());
        if (!open().length) return result('reached');
        if (stuck()) return result('unreachable');
      }
      const left = deadline - Date.now();
      if (left <= 0) return result('timeout');
      const pause =
        state === 'out'
          ? outagePauseMs(outage!.tries, firstStepMs, outage!.retryAfterMs)
          : watch
            ? WATCHED_SAFETY_MS
            : nextPauseMs(round, open().length, rate, Date.now(), o.firstStepMs, spent);
      if (state === 'out') o.onOutage?.({ ...outage!, nextLookAt: Date.now() + Math.min(pause, left) });
      const why = await sleep(Math.min(pause, left), state === 'ok' ? watch?.next() : undefined, o.signal);
      if (why === 'aborted') return result('interrupted');
      const pending = open();
      state = await look(pending);
      if (state === LATE) return result('timeout');
      if (why === 'timer' && Date.now() >= deadline) {
        // That was the last look: the Bundle may have got there in the meantime.
        if (state === 'ok') o.onUpdate?.(known());
        if (state === 'ok' && !open().length) return result('reached');
        return result(stuck() ? 'unreachable' : 'timeout');
      }
      if (state !== 'ok') continue;
      spent.inWindow += pending.length;
      spent.sinceRead += pending.length;
      // The rate status is re-read now and then (other clients use the same quota), and after a reset.
      if (!watch && (round % 10 === 9 || !rateRead || (rate && Date.now() > rate.reset * 1000))) await readRate();
    }
  } finally {
    watch?.stop();
  }
}

/** `p`, or LATE when `deadline` (ms since the epoch) comes first; a late `p` settles unheard. */
function beforeDeadline<T>(p: Promise<T>, deadline: number): Promise<T | typeof LATE> {
  p.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** A watcher as a promise that settles on the next change after it is asked for. */
function changeSignal(watchBundles: (onChange: () => void) => () => void) {
  let wake: (() => void) | undefined;
  let changed = false;
  const stop = watchBundles(() => {
    changed = true;
    wake?.();
  });
  return {
    next: () =>
      new Promise<void>((resolve) => {
        if (changed) {
          changed = false;
          return resolve();
        }
        wake = () => {
          changed = false;
          wake = undefined;
          resolve();
        };
      }),
    stop,
  };
}

function sleep(
  ms: number,
  change: Promise<void> | undefined,
  signal: AbortSignal | undefined,
): Promise<'timer' | 'change' | 'aborted'> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve('aborted');
    const done = (why: 'timer' | 'change' | 'aborted') => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(why);
    };
    const onAbort = () => done('aborted');
    const timer = setTimeout(() => done('timer'), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    change?.then(() => done('change'));
  });
}
