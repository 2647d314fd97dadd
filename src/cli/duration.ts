// Durations on the command line: the grammar is the application layer's (app/duration.ts); a flag
// that is not one is a usage error naming the flag.
import { DURATION_EXAMPLES, parseDuration } from '../app/duration.js';
import { CliError, EXIT } from './exitCodes.js';

export { DURATION_EXAMPLES, formatDuration, parseDuration } from '../app/duration.js';

/** A flag's duration in milliseconds; anything else is a usage error naming the flag. */
export function durationArg(text: string, flag: string): number {
  const ms = parseDuration(text);
  if (ms === undefined)
    throw new CliError(`${flag} expects a duration such as ${DURATION_EXAMPLES}, got "${text}".`, EXIT.USAGE);
  return ms;
}

/** A flag named in seconds: bare seconds as ever (`300`), or the grammar (`5m`); whole seconds, at least `min`. */
export function secondsArg(text: string, flag: string, min = 0): number {
  const ms = durationArg(text, flag);
  if (ms % 1000) throw new CliError(`${flag} takes whole seconds, got "${text}".`, EXIT.USAGE);
  if (ms / 1000 < min) throw new CliError(`${flag} must be at least ${min} s, got "${text}".`, EXIT.USAGE);
  return ms / 1000;
}
