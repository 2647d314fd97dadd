// esign local clock show|advance|reset: the sandbox's clock, which tests can move forward: the
// engine's, or esign serve's when it is the backend selected (port operations, /sandbox/clock/).
import { loadSchemas } from '../../../lazyImport.js';
import { DURATION_EXAMPLES, parseDuration } from '../../duration.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { printObject } from '../../output/print.js';
import { defineVerb } from '../../verb.js';

export const show = defineVerb('show', '', {
  commandOptions: { isDefault: true },
  examples: ['esign local clock show', 'esign local clock show --json'],
  async run(f) {
    const v = await (await f.sandbox('clock')).getClock();
    await printObject(f, v, Object.entries(v), v.now);
  },
});

export const advance = defineVerb('advance <duration>', 'Move time forward, e.g. 90m, 3d, 1d12h', {
  examples: ['esign local clock advance 3d', 'esign local clock advance 12h'],
  async run(f, _o, duration) {
    const ms = parseDuration(duration);
    if (ms === undefined)
      throw new CliError(`"${duration}" is not a duration (examples: ${DURATION_EXAMPLES}).`, EXIT.USAGE);
    const { MAX_CLOCK_ADVANCE_MS } = await loadSchemas();
    if (ms < 1 || ms > MAX_CLOCK_ADVANCE_MS)
      throw new CliError(`"${duration}": the clock moves forward by 1 ms to ten years at a time.`, EXIT.USAGE);
    // What the new time makes due happens at once: expiry and reminders.
    const v = await (await f.sandbox('clock')).advanceClock(ms);
    await printObject(f, v, Object.entries(v), v.now);
  },
});

export const reset = defineVerb('reset', 'Back to wall-clock time', {
  examples: ['esign local clock reset', 'esign local clock reset --json'],
  async run(f) {
    const v = await (await f.sandbox('clock')).resetClock();
    await printObject(f, v, Object.entries(v), v.now);
  },
});
