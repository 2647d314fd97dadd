// esign local clock show|advance|reset: the engine's clock, which tests can move forward.
import type { Command } from '@commander-js/extra-typings';
import { DURATION_EXAMPLES, parseDuration } from '../../duration.js';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { printObject } from '../../output/print.js';
import type { Action } from '../../run.js';

export interface AdvanceOptions {
  duration: string;
}

export function register(local: Command, action: Action): void {
  const clock = local.command('clock').description("The engine's clock, which tests can move forward");
  clock.command('show', { isDefault: true }).action(action(runShow));
  clock
    .command('advance <duration>')
    .description('Move time forward, e.g. 90m, 3d, 1d12h')
    .action(action(async (f, _o: object, duration: string) => runAdvance(f, { duration })));
  clock.command('reset').description('Back to wall-clock time').action(action(runReset));
}

export async function runShow(f: Factory): Promise<void> {
  const c = (await f.local()).clock;
  const v = { now: c.now(), offset_ms: c.offset() };
  await printObject(f, v, Object.entries(v), v.now);
}

export async function runAdvance(f: Factory, o: AdvanceOptions): Promise<void> {
  const ms = parseDuration(o.duration);
  if (ms === undefined)
    throw new CliError(`"${o.duration}" is not a duration (examples: ${DURATION_EXAMPLES}).`, EXIT.USAGE);
  const e = await f.local();
  e.clock.advance(ms);
  // What the new time makes due happens now: expiry and reminders.
  const done = e.runDue();
  const v = { now: e.clock.now(), offset_ms: e.clock.offset(), ...done };
  await printObject(f, v, Object.entries(v), v.now);
}

export async function runReset(f: Factory): Promise<void> {
  const c = (await f.local()).clock;
  c.setOffset(0);
  await printObject(
    f,
    { now: c.now(), offset_ms: 0 },
    [
      ['now', c.now()],
      ['offset_ms', 0],
    ],
    c.now(),
  );
}
