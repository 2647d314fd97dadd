// esign local clock show|advance|reset: the engine's clock, which tests can move forward.
import { DURATION_EXAMPLES, parseDuration } from '../../duration.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { printObject } from '../../output/print.js';
import { defineVerb } from '../../verb.js';

export const show = defineVerb('show', '', {
  commandOptions: { isDefault: true },
  examples: ['esign local clock show', 'esign local clock show --json'],
  async run(f) {
    const c = (await f.local()).clock;
    const v = { now: c.now(), offset_ms: c.offset() };
    await printObject(f, v, Object.entries(v), v.now);
  },
});

export const advance = defineVerb('advance <duration>', 'Move time forward, e.g. 90m, 3d, 1d12h', {
  examples: ['esign local clock advance 3d', 'esign local clock advance 12h'],
  async run(f, _o, duration) {
    const ms = parseDuration(duration);
    if (ms === undefined)
      throw new CliError(`"${duration}" is not a duration (examples: ${DURATION_EXAMPLES}).`, EXIT.USAGE);
    const e = await f.local();
    e.clock.advance(ms);
    // What the new time makes due happens now: expiry and reminders.
    const done = e.runDue();
    const v = { now: e.clock.now(), offset_ms: e.clock.offset(), ...done };
    await printObject(f, v, Object.entries(v), v.now);
  },
});

export const reset = defineVerb('reset', 'Back to wall-clock time', {
  examples: ['esign local clock reset', 'esign local clock reset --json'],
  async run(f) {
    const c = (await f.local()).clock;
    c.setOffset(0);
    const v = { now: c.now(), offset_ms: 0 };
    await printObject(f, v, Object.entries(v), v.now);
  },
});
