// What the sandboxes of one esign serve may take, so a shared team server cannot be filled: how
// many exist at once, how long each lives, and how much disk each holds. `esign serve` flags set them.

export interface SandboxLimits {
  /** Sandboxes that may exist at once (0: the server makes none). */
  max: number;
  /** A sandbox's life when its creator names none. */
  defaultTtlSeconds: number;
  /** The longest life a creator may ask for. */
  maxTtlSeconds: number;
  /** Disk a sandbox may hold (its SQLite file and its documents); past it, its writes are refused. */
  maxBytes: number;
  /** How often expired sandboxes are deleted and sizes measured. */
  sweepMs: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  max: 20,
  defaultTtlSeconds: 3600,
  maxTtlSeconds: 24 * 3600,
  maxBytes: 256 * 1024 * 1024,
  sweepMs: 30_000,
};

/** A sandbox's name: short, printable, for the people listing them. */
export const NAME_MAX = 100;
