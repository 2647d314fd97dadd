// wait_for_bundles: `esign bundle wait` (the use case app/wait) for an agent: until every Bundle
// reaches a state, or the time is up, or a Bundle ends where the state cannot come.
import { z } from 'zod';
import { waitForBundles } from '../../app/wait/waiter.js';
import { explainEnd } from '../../app/wait/why.js';
import { WAIT_TARGETS, bundleStateWord, reachedTarget } from '../../domain/states.js';
import { count, ours, say } from '../prose.js';
import { id, job } from './kit.js';

const WAIT_LIMITS = { ids: 50, seconds: 600 } as const;

export const waitTool = job({
  name: 'wait_for_bundles',
  title: 'Wait for Bundles',
  description:
    `Waits (at most timeout_seconds, ≤ ${WAIT_LIMITS.seconds}) until every Bundle reaches a state: sent, started, complete, ` +
    'docs-ready (signed files ready to download) or ended. outcome: reached, timeout (call again), or unreachable (with why). ' +
    'For where a Bundle stands now, bundle_story.',
  uses: ['getBundle', 'listBundles', 'listBundleEvents'],
  long: true,
  input: z.strictObject({
    ids: z.array(id).min(1).max(WAIT_LIMITS.ids),
    until: z.enum(WAIT_TARGETS).default('complete'),
    timeout_seconds: z.int().min(1).max(WAIT_LIMITS.seconds).default(60),
  }),
  output: z.object({
    outcome: z.enum(['reached', 'timeout', 'unreachable', 'interrupted']),
    bundles: z.array(z.object({ id: z.string(), state: z.string(), docs_ready: z.boolean() })),
    pending: z.array(z.string()),
    unreachable: z.array(z.object({ id: z.string(), reason: z.string() })),
  }),
  async run(a, { service, signal, status }) {
    const ids = [...new Set(a.ids)];
    status(say`waiting: ${count(ids.length, 'Bundle')} not yet ${a.until}`, a.timeout_seconds);
    const r = await waitForBundles(service, ids, {
      target: a.until,
      timeoutMs: a.timeout_seconds * 1000,
      signal,
      onUpdate: (bundles) => {
        const open = bundles.filter((b) => !reachedTarget(a.until, b)).length;
        status(say`waiting: ${open} of ${count(ids.length, 'Bundle')} not yet ${a.until}`, a.timeout_seconds);
      },
    });
    const unreachable = await Promise.all(
      r.unreachable.map(async (b) => ({ id: b.id, reason: await explainEnd(service, b) })),
    );
    const words = {
      reached: say`All ${count(ids.length, 'Bundle')} reached ${a.until}.`,
      timeout: say`Timed out after ${a.timeout_seconds} s: ${count(r.pending.length + r.unread.length, 'Bundle')} not yet ${a.until}${ours(r.outage ? ' (the server was unreachable or failing at the end)' : '')}. Call again to keep waiting.`,
      unreachable: say`${count(unreachable.length, 'Bundle')} ended where ${a.until} cannot come (reasons in the data).`,
      interrupted: say`The wait was cancelled.`,
    };
    return {
      say: words[r.outcome],
      data: {
        outcome: r.outcome,
        bundles: r.bundles.map((b) => ({ id: b.id, state: bundleStateWord(b.status), docs_ready: b.docs_ready })),
        pending: [...r.pending.map((b) => b.id), ...r.unread],
        unreachable,
      },
    };
  },
});
