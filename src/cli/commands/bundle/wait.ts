// esign bundle wait ID... [--until STATE] [--timeout DURATION]: wait, as a CI job does, for
// Bundles to be sent, started, complete, complete with final files, or ended.
import { waitForBundles } from '../../../app/wait/waiter.js';
import { explainEnd } from '../../../app/wait/why.js';
import { liveLines } from '../../wait/live.js';
import { outageNotes } from '../../wait/outageNote.js';
import { WAIT_TARGETS, type WaitTarget, bundleStateWord } from '../../../domain/states.js';
import type { Bundle } from '../../../service/types.js';
import { DURATION_EXAMPLES, durationArg, formatDuration } from '../../duration.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { choiceOption } from '../../flags.js';
import { note, writeJson } from '../../output/print.js';
import { safeLine } from '../../../app/sanitize.js';
import { defineVerb } from '../../verb.js';

const DEFAULT_TIMEOUT = '1h';

export const wait = defineVerb(
  'wait <ids...>',
  `Wait until every Bundle reaches a state; exit ${EXIT.TIMEOUT} on timeout, ` +
    `${EXIT.UNREACHABLE} when one ended where it cannot`,
  {
    flags: (c) =>
      c
        .addOption(
          choiceOption('--until <state>', 'docs-ready: complete with the final files', WAIT_TARGETS).default(
            'complete',
          ),
        )
        .option(
          '--timeout <duration>',
          `give up after this long: ${DURATION_EXAMPLES}; an unreachable server, a 5xx or a 429 is waited through until then`,
          DEFAULT_TIMEOUT,
        ),
    examples: [
      'esign bundle wait 9KwSrpJdyp --until docs-ready --timeout 30m',
      'esign bundle wait 9KwSrpJdyp Q4mT2vXbLc --until ended --json',
      'esign bundle wait 9KwSrpJdyp --until sent --timeout 90s',
    ],
    async run(f, o, given) {
      const target = o.until as WaitTarget;
      if (!WAIT_TARGETS.includes(target))
        throw new CliError(`--until expects one of ${WAIT_TARGETS.join(', ')}, got "${o.until}".`, EXIT.USAGE);
      const timeoutMs = durationArg(o.timeout, '--timeout');
      const ids = [...new Set(given)];
      const service = await f.service();
      const live = f.io.err.isTTY && !f.options.json && !f.options.quiet ? liveLines(f.io.err, target) : undefined;
      // Through an outage the wait looks again until its own timeout, saying in one line what it waits through.
      const outage = outageNotes(f, await f.where(), Date.now() + timeoutMs, live?.status);
      const undivert = f.divertRetryNotes(() => undefined);
      const unthrottle = f.onThrottle(outage.throttled);
      let r: Awaited<ReturnType<typeof waitForBundles>>;
      try {
        r = await waitForBundles(service, ids, {
          target,
          timeoutMs,
          onUpdate: (bundles) => {
            outage.answered();
            live?.update(bundles);
          },
          onOutage: outage.report,
          firstStepMs: f.timing.waitFirstStepMs,
        });
      } finally {
        unthrottle();
        undivert();
        live?.done();
      }
      if (f.options.json) writeJson(f, r.bundles);
      else if (f.options.quiet)
        f.io.out.write(
          r.bundles
            .filter((b) => !r.pending.includes(b))
            .map((b) => `${safeLine(b.id)}\n`)
            .join(''),
        );
      else if (!live) for (const b of r.bundles) f.io.out.write(`${safeLine(b.id)}\t${safeLine(b.status)}\n`);
      const where = (b: Bundle) => `${b.id} is ${bundleStateWord(b.status)}`;
      const stillOpen = [...r.pending.map(where), ...r.unread.map((id) => `${id} was never read`)].join(', ');
      const through = r.outage ? ` (${await f.where()}: ${r.outage.what})` : '';
      switch (r.outcome) {
        case 'reached':
          if (!f.options.json && !f.options.quiet)
            note(f, `${ids.length === 1 ? 'The Bundle' : `All ${ids.length} Bundles`} reached ${target}.`);
          return;
        case 'interrupted':
          throw new CliError(`Interrupted: ${stillOpen}.`, EXIT.INTERRUPTED);
        case 'timeout':
          throw new CliError(
            `Timed out after ${formatDuration(timeoutMs)} waiting for ${target}: ${stillOpen}${through}.`,
            EXIT.TIMEOUT,
          );
        case 'unreachable': {
          const reasons = await Promise.all(
            r.unreachable.map(async (b) => `${b.id} cannot reach ${target}: ${await explainEnd(service, b)}`),
          );
          throw new CliError(reasons.join('; '), EXIT.UNREACHABLE);
        }
      }
    },
  },
);
