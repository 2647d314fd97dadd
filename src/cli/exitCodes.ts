// The documented exit codes (`esign help exit-codes`, README). Scripts depend on them: never renumber.
import type { FailureKind } from '../app/failure.js';
import { ApiError } from '../domain/errors.js';
import { isSendable, isUpdatable } from '../domain/states.js';

export const EXIT = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  INVALID: 3,
  AUTH: 4,
  FORBIDDEN: 5,
  NOT_FOUND: 6,
  CONFLICT: 7,
  RATE_LIMITED: 8,
  MISMATCH: 9,
  TIMEOUT: 10,
  STALE: 11,
  PARTIAL: 12,
  UNREACHABLE: 13,
  CANNOT_SEND: 14,
  INCOMPLETE: 15,
  SCENARIO_FAILED: 16,
  SCENARIO_INVALID: 17,
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The code of each kind of use-case refusal (src/app/failure.ts). */
export const EXIT_FOR_FAILURE: Record<FailureKind, ExitCode> = {
  failure: EXIT.FAILURE,
  usage: EXIT.USAGE,
  invalid: EXIT.INVALID,
  conflict: EXIT.CONFLICT,
  mismatch: EXIT.MISMATCH,
};

/** The one table: `esign help exit-codes` prints it and the README's "Exit codes" holds it word for word (a test checks). */
export const EXIT_TABLE: [number, string][] = [
  [EXIT.OK, 'Success (an empty list is success too)'],
  [EXIT.FAILURE, 'Failure: an unexpected error, a server error (5xx) or an unreachable server'],
  [EXIT.USAGE, 'Usage error: unknown command or flag, missing or malformed argument, unreadable input file'],
  [EXIT.INVALID, 'The request was rejected as invalid (HTTP 400): the message names the field'],
  [EXIT.AUTH, 'Authentication failed (HTTP 401): missing or wrong API key'],
  [EXIT.FORBIDDEN, 'Not permitted (HTTP 403): an account feature is off, or the key lacks the right'],
  [EXIT.NOT_FOUND, 'Not found (HTTP 404): no such Bundle, Packet or other object'],
  [
    EXIT.CONFLICT,
    'Conflict (HTTP 409): the object is not in a state that allows this now (sending a Bundle already sent, or updating one that has ended, too)',
  ],
  [EXIT.RATE_LIMITED, 'Rate limited (HTTP 429) after retries'],
  [EXIT.MISMATCH, 'Verification mismatch: the hash matches no document, or a webhook signature does not match'],
  [EXIT.TIMEOUT, 'A wait (bundle wait, --wait) timed out before the expected state was reached'],
  [EXIT.STALE, 'Stale webhook delivery: the signature is valid but its timestamp is outside the tolerance'],
  [
    EXIT.PARTIAL,
    'Some items of a batch or of a command given several ids failed (the summary names them); the rest succeeded',
  ],
  [
    EXIT.UNREACHABLE,
    'A wait (bundle wait, bundle create --wait) can no longer succeed: the Bundle ended in another state (declined, cancelled, expired, failed); the message says which and why',
  ],
  [EXIT.CANNOT_SEND, 'The Bundle cannot be sent as it is (bundle validate: can_send is false; the message says why)'],
  [
    EXIT.INCOMPLETE,
    'Created, but not all of it was applied (its tags, say): the id is printed, the message says what is missing; do not create it again',
  ],
  [
    EXIT.SCENARIO_FAILED,
    'A scenario failed (esign scenario run): a step did not hold what it expects, or its request failed; the summary names the step and shows expected, actual and its answer',
  ],
  [
    EXIT.SCENARIO_INVALID,
    'A scenario file is invalid (its format, a reference to a step that does not come before, an unset variable), uses what the backend does not offer (signer actions or the clock on the hosted service), or its server cannot be used; that file did not run (a failed suite in the JUnit), the others ran',
  ],
  [EXIT.INTERRUPTED, 'Interrupted (Ctrl-C)'],
];

export function exitCodeForStatus(status: number): ExitCode {
  switch (status) {
    case 400:
      return EXIT.INVALID;
    case 401:
      return EXIT.AUTH;
    case 403:
      return EXIT.FORBIDDEN;
    case 404:
      return EXIT.NOT_FOUND;
    case 409:
      return EXIT.CONFLICT;
    case 429:
      return EXIT.RATE_LIMITED;
    default:
      return EXIT.FAILURE;
  }
}

/** An error the CLI itself raises, with the exit code it means (always explicit: the same failure gets the same code everywhere). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * A refusal the API gives as 400 although it is about state, not input (sending a Bundle that is
 * already sent): reported as the API's error, with the exit code of a state conflict (7).
 */
export class StateConflict extends Error {
  constructor(readonly apiError: Error) {
    super(apiError.message);
    this.name = 'StateConflict';
  }
}

/**
 * The operations whose 400 may be about the Bundle's state, not the input (sending a Bundle already
 * sent, updating one that has ended), and the states that take them: one rule for the verbs and
 * for `esign api`, so the same failure exits 7 from both.
 */
export const STATE_GATED: Partial<Record<string, (status: string) => boolean>> = {
  sendBundle: isSendable,
  updateBundle: isUpdatable,
};

/**
 * Rethrows `e`, as a StateConflict when it is a 400 with no field error and the Bundle's state, read
 * again, refuses the operation (`STATE_GATED` says which states take it): the same code on both backends.
 */
export async function rethrowAsStateConflict(
  e: unknown,
  operation: string,
  status: () => Promise<string>,
): Promise<never> {
  const allowed = STATE_GATED[operation];
  if (allowed && e instanceof ApiError && e.status === 400 && !e.errors.length && !allowed(await status()))
    throw new StateConflict(e);
  throw e;
}
