// Waits for Bundles to reach a state: reacts at once where the backend can tell it (the local
// engine), else polls with backoff paced by the remote rate limit.
import type { EsignService } from '../../service/service.js';
import { cannotReach, reachedTarget, type WaitTarget } from '../../service/states.js';
import type { Bundle, RateLimit } from '../../service/types.js';
import { nextPauseMs, type Spent } from '../rateBudget.js';

/** `processed`: the Bundle's documents are processed (it left `pe`: launched, saved as a draft, or failed). */
type WaiterTarget = WaitTarget | 'processed';

const reached = (target: WaiterTarget, b: Bundle): boolean =>
  target === 'processed' ? b.status !== 'pe' : reachedTarget(target, b);
const unreachable = (target: WaiterTarget, b: Bundle): boolean => target !== 'processed' && cannotReach(target, b);

export interface WaitOptions {
  target: WaiterTarget;
  timeoutMs: number;
  /** Called with every Bundle after each look (for the live lines). */
  onUpdate?: (bundles: Bundle[]) => void;
  /** Stops the wait early (Ctrl-C). */
  signal?: AbortSignal;
  /** The pacing's first backoff step (default FIRST_STEP_MS; tests shorten it instead of waiting). */
  firstStepMs?: number;
}

export interface WaitResult {
  outcome: 'reached' | 'timeout' | 'unreachable' | 'interrupted';
  bundles: Bundle[];
  /** Those that ended where the target can no longer be reached. */
  unreachable: Bundle[];
  /** Those still short of the target (on a timeout). */
  pending: Bundle[];
  /** Requests made to look (the remote backend's count matters). */
  looks: number;
}

/** On the local engine nothing moves without a signal; this safety re-read catches any missed one. */
const WATCHED_SAFETY_MS = 5_000;

export async function waitForBundles(service: EsignService, slugs: string[], o: WaitOptions): Promise<WaitResult> {
  const deadline = Date.now() + o.timeoutMs;
  const current = new Map<string, Bundle>();
  let looks = 0;
  const refresh = async (ids: string[]) => {
    for (const id of ids) {
      current.set(id, await service.getBundle(id));
      looks++;
    }
  };
  const open = () => slugs.filter((id) => !reached(o.target, current.get(id)!));
  const result = (outcome: WaitResult['outcome']): WaitResult => {
    const bundles = slugs.map((id) => current.get(id)!);
    return {
      outcome,
      bundles,
      looks,
      unreachable: bundles.filter((b) => unreachable(o.target, b)),
      pending: bundles.filter((b) => !reached(o.target, b)),
    };
  };

  await refresh(slugs);
  const watch = service.watchBundles ? changeSignal(service.watchBundles.bind(service)) : undefined;
  let rate: RateLimit | undefined;
  const spent: Spent = { inWindow: looks, sinceRead: 0 };
  const readRate = async () => {
    const was = rate;
    rate = await service.getRateLimit().catch(() => rate);
    spent.sinceRead = 0;
    // A new window: the wait's share of it is whole again.
    if (was && rate && rate.reset > was.reset) spent.inWindow = 0;
  };
  if (!watch) await readRate();
  try {
    for (let round = 0; ; round++) {
      o.onUpdate?.(slugs.map((id) => current.get(id)!));
      const pending = open();
      if (!pending.length) return result('reached');
      if (pending.some((id) => unreachable(o.target, current.get(id)!))) return result('unreachable');
      const left = deadline - Date.now();
      if (left <= 0) return result('timeout');
      const pause = watch
        ? WATCHED_SAFETY_MS
        : nextPauseMs(round, pending.length, rate, Date.now(), o.firstStepMs, spent);
      const why = await sleep(Math.min(pause, left), watch?.next(), o.signal);
      if (why === 'aborted') return result('interrupted');
      if (why === 'timer' && Date.now() >= deadline) {
        // One last look: the Bundle may have got there in the meantime.
        await refresh(pending);
        o.onUpdate?.(slugs.map((id) => current.get(id)!));
        return open().length
          ? result(open().some((id) => unreachable(o.target, current.get(id)!)) ? 'unreachable' : 'timeout')
          : result('reached');
      }
      await refresh(pending);
      spent.inWindow += pending.length;
      spent.sinceRead += pending.length;
      // The rate status is re-read now and then (other clients use the same quota), and after a reset.
      if (!watch && (round % 10 === 9 || (rate && Date.now() > rate.reset * 1000))) await readRate();
    }
  } finally {
    watch?.stop();
  }
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
