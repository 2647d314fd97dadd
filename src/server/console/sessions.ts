// Who may use the console: one-time sign-in tokens (esign console prints one), sessions behind an
// HttpOnly, SameSite=Strict cookie with an expiry, and a CSRF token per session for every POST.
// Held in memory: a console restart signs everyone out, which is what a local tool should do.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { RateLimiter } from '../rateLimit.js';

/** What an action's page says at the top of the next page: what the backend answered, good or not. */
export interface Flash {
  ok: boolean;
  text: string;
}

export interface Session {
  id: string;
  csrf: string;
  expires: number;
  /** The API key that signed in (the serve door): the session ends once the key is no longer live. */
  keyId?: string;
  /** The outcome of the last action, shown once. */
  flash?: Flash;
}

export interface SessionTiming {
  /** How long a session lasts after sign-in. */
  sessionTtlMs: number;
  /** How long a one-time sign-in token waits to be used. */
  tokenTtlMs: number;
  now: () => number;
}

const DEFAULT_TIMING: SessionTiming = {
  sessionTtlMs: 8 * 3_600_000,
  tokenTtlMs: 15 * 60_000,
  now: () => Date.now(),
};

/** Bounds on what memory sessions and tokens may take, whatever a client does. */
const MAX_SESSIONS = 1_000;
const MAX_TOKENS = 100;

const secret = () => randomBytes(32).toString('base64url');
/** Kept by digest: a memory dump or a log of the map shows no usable token. */
const digest = (s: string) => createHash('sha256').update(s).digest('base64url');

export class ConsoleSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly tokens = new Map<string, number>();
  private readonly endedWhy = new Map<string, string>();
  readonly timing: SessionTiming;

  constructor(timing: Partial<SessionTiming> = {}) {
    this.timing = { ...DEFAULT_TIMING, ...timing };
  }

  /** A token for a sign-in URL: it works once, within tokenTtlMs. */
  issueToken(): string {
    this.sweep();
    while (this.tokens.size >= MAX_TOKENS) this.tokens.delete(this.tokens.keys().next().value!);
    const token = secret();
    this.tokens.set(digest(token), this.timing.now() + this.timing.tokenTtlMs);
    return token;
  }

  /** Spends a sign-in token: a session, or undefined when the token is unknown, used or expired. */
  redeem(token: string): Session | undefined {
    const key = digest(token);
    const expires = this.tokens.get(key);
    this.tokens.delete(key);
    if (expires === undefined || expires <= this.timing.now()) return undefined;
    return this.open();
  }

  /** A new session (after a token, or the API key `keyId`, was accepted). */
  open(keyId?: string): Session {
    this.sweep();
    while (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    const id = secret();
    const s: Session = { id, csrf: secret(), expires: this.timing.now() + this.timing.sessionTtlMs, keyId };
    this.sessions.set(digest(id), s);
    return s;
  }

  get(id: string | undefined): Session | undefined {
    if (!id) return undefined;
    const s = this.sessions.get(digest(id));
    if (!s) return undefined;
    if (s.expires <= this.timing.now()) {
      this.sessions.delete(digest(id));
      return undefined;
    }
    return s;
  }

  /**
   * Ends a session; with `why`, its browser is told why at its next request (the request that ended
   * it may be one no one sees: a page's live stream).
   */
  close(id: string | undefined, why?: string): void {
    if (!id) return;
    const open = this.sessions.delete(digest(id));
    // Closed without a reason by a page its browser shows: whatever was left to tell is told there.
    if (why === undefined) return void this.endedWhy.delete(digest(id));
    if (!open) return;
    while (this.endedWhy.size >= MAX_SESSIONS) this.endedWhy.delete(this.endedWhy.keys().next().value!);
    this.endedWhy.set(digest(id), why);
  }

  /** Why the session `id` was closed (`close` with a reason), once: the request after is only signed out. */
  takeEndReason(id: string | undefined): string | undefined {
    if (!id) return undefined;
    const why = this.endedWhy.get(digest(id));
    this.endedWhy.delete(digest(id));
    return why;
  }

  private sweep(): void {
    const now = this.timing.now();
    for (const [k, s] of this.sessions) if (s.expires <= now) this.sessions.delete(k);
    for (const [k, e] of this.tokens) if (e <= now) this.tokens.delete(k);
  }
}

/** Whether a submitted CSRF token is the session's (compared in constant time). */
export function csrfMatches(session: Session, given: unknown): boolean {
  if (typeof given !== 'string' || !given) return false;
  const a = Buffer.from(digest(given));
  const b = Buffer.from(digest(session.csrf));
  return timingSafeEqual(a, b);
}

/** Failed sign-ins allowed per client address, and per key prefix (the first 10 characters typed), in a window. */
const SIGN_IN_LIMITS = { perAddress: 10, perKeyPrefix: 5, windowSeconds: 60 };

/**
 * Failed sign-in attempts, by client address and by key prefix: past either bound, sign-in is
 * refused (429) until the window ends, whatever is typed, so keys cannot be tried at speed from one
 * address, nor one key's endings from many. Only failures count: a person who signs in is not slowed.
 */
export class SignInThrottle {
  private readonly byAddress: RateLimiter;
  private readonly byPrefix: RateLimiter;
  constructor(
    limits = SIGN_IN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    const window = { createLimit: 0, windowSeconds: limits.windowSeconds };
    this.byAddress = new RateLimiter({ ...window, limit: limits.perAddress }, now);
    this.byPrefix = new RateLimiter({ ...window, limit: limits.perKeyPrefix }, now);
  }

  /** Seconds to wait before another attempt from `address` (with `key`) is heard, or 0. */
  waitSeconds(address: string, key = ''): number {
    const states = [this.byAddress.peek(`ip:${address}`)];
    if (key) states.push(this.byPrefix.peek(`prefix:${key.slice(0, 10)}`));
    const full = states.filter((s) => s.remaining === 0);
    if (!full.length) return 0;
    return Math.max(1, ...full.map((s) => s.reset - Math.floor(this.now() / 1000)));
  }

  /** Counts a failed attempt. */
  failed(address: string, key = ''): void {
    this.byAddress.take(`ip:${address}`, 'call');
    if (key) this.byPrefix.take(`prefix:${key.slice(0, 10)}`, 'call');
  }
}
