// Spreads creates over the server's window instead of running into 429s: one slot every
// window/limit (with a small margin for clock and network skew), and a pause for everyone when the
// server still says 429 (its Retry-After).
import type { EsignService } from '../../service/service.js';
import { CliError, EXIT } from '../exitCodes.js';

/** wire-facts.md: 200 Bundle creations and 2000 other calls per hour per key; creations are a tenth. */
export const DOCUMENTED_CREATE_SHARE = 200 / 2000;
const MARGIN = 1.03;

export interface Allowance {
  creates: number;
  windowSeconds: number;
  /** How it was found, for the summary. */
  from: string;
}

/** `50/10` (creates per seconds) from --rate. */
export function parseRate(text: string): Allowance {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*(s)?\s*$/.exec(text);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new CliError(`--rate expects CREATES/SECONDS (e.g. 200/3600), got "${text}".`, EXIT.USAGE);
  return { creates: Number(m[1]), windowSeconds: Number(m[2]), from: '--rate' };
}

/**
 * The create allowance of a remote server: GET /rate_limit/ gives the call limit and its window;
 * creations get the documented share of it (200 of 2000 per hour on the hosted service).
 */
export async function readAllowance(service: EsignService): Promise<Allowance> {
  const r = await service.getRateLimit();
  const creates = Math.max(1, Math.floor(r.limit * DOCUMENTED_CREATE_SHARE));
  return { creates, windowSeconds: r.window, from: `GET /rate_limit/ (${r.limit} calls per ${r.window} s; creations ${creates})` };
}

export class Pacer {
  private next = 0;
  private pausedUntil = 0;
  readonly intervalMs: number;
  constructor(allowance: Allowance, private readonly now: () => number = Date.now) {
    this.intervalMs = ((allowance.windowSeconds * 1000) / allowance.creates) * MARGIN;
  }

  /** Resolves when the caller may send its create. */
  async slot(): Promise<void> {
    for (;;) {
      const t = this.now();
      const at = Math.max(t, this.next, this.pausedUntil);
      if (at <= t) {
        this.next = t + this.intervalMs;
        return;
      }
      await new Promise((r) => setTimeout(r, at - t));
      if (this.now() >= Math.max(this.next, this.pausedUntil)) {
        this.next = this.now() + this.intervalMs;
        return;
      }
    }
  }

  /** The server said 429: nobody sends before `untilMs`. */
  pause(untilMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, untilMs);
  }

  /** When the next create may go (ms since the epoch). */
  nextSlotAt(): number {
    return Math.max(this.next, this.pausedUntil);
  }
}
