// The rate limits of API v2: one definition for esign serve's limiter and the engine's report.

export interface RateLimitConfig {
  /** Requests per window for every call but Bundle creation. */
  limit: number;
  /** Bundle creations per window. */
  createLimit: number;
  /** Window length in seconds. */
  windowSeconds: number;
}

/** The hosted service's documented limits: 2000 calls and 200 Bundle creations per hour. */
export const DEFAULT_RATE_LIMITS: RateLimitConfig = { limit: 2000, createLimit: 200, windowSeconds: 3600 };
