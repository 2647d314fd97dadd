// esign auth status: what commands use now (after flags, environment and the current profile): the
// profile, the backend, the server and where its URL came from, where the key came from (never the
// key), whether the server takes it, and the key's rate limit. A key that does not work exits with
// the code of its failure (4 refused, 1 unreachable), saying what fixes it.
import { CliError, EXIT, exitCodeForStatus } from '../../exitCodes.js';
import { printObject } from '../../output/print.js';
import { defineVerb } from '../../verb.js';
import { checkKey } from '../profile/check.js';
import { refusedKey, sourceOf, unreachable } from '../../nextStep.js';

export const status = defineVerb(
  'status',
  'What commands use now: the profile, the server and where its URL came from, where the API key came from and whether it works (the key is never shown)',
  {
    flags: (c) => c.option('--no-check', 'do not ask the server whether the key works'),
    examples: ['esign auth status', 'esign auth status --json', 'esign auth status --no-check'],
    async run(f, o) {
      const s = await f.settings();
      if (!s.baseUrl) {
        const shown = {
          profile: s.profile ?? null,
          backend: 'local',
          data_dir: await f.dataDir(),
          api_key: null,
          key_works: null,
        };
        return printObject(f, shown, [
          ['profile', s.profile ?? 'none'],
          ['backend', 'local: the embedded engine (no server, no key)'],
          ['data dir', shown.data_dir],
        ]);
      }
      const c = o.check === false ? undefined : await checkKey(f, s.baseUrl, s.apiKey);
      const keyFrom = s.keyFrom === 'ESIGN_API_KEY' ? 'ESIGN_API_KEY' : s.keyFrom ? `profile "${s.profile}"` : null;
      const shown = {
        profile: s.profile ?? null,
        backend: 'remote',
        base_url: s.baseUrl,
        base_url_from: sourceOf(s),
        api_key_from: keyFrom,
        key_works: c ? c.ok : null,
        ...(c && !c.ok ? { key_check: c.detail } : {}),
        rate_limit: c?.rate ?? null,
        live: s.live,
      };
      const rate = c?.rate;
      await printObject(f, shown, [
        ['profile', s.profile ?? 'none'],
        ['backend', 'remote'],
        ['server', `${s.baseUrl} (from ${shown.base_url_from})`],
        ['api key', keyFrom ? `set, from ${keyFrom}` : 'none'],
        ['key works', !c ? 'not checked (--no-check)' : c.ok ? 'yes' : `no: ${c.detail}`],
        ...(rate
          ? [
              [
                'rate limit',
                `${rate.remaining} of ${rate.limit} left in a ${rate.window} s window, resets ${new Date(rate.reset * 1000).toISOString()}`,
              ] as [string, unknown],
            ]
          : []),
        ['live', s.live ? 'yes: non-test Bundles go out without --live' : 'no'],
      ]);
      if (!c || c.ok) return;
      if (c.status === undefined) throw new CliError(`The key was not checked. ${unreachable(s)}`, EXIT.FAILURE);
      if (c.status === 401) throw new CliError(refusedKey(s, true), EXIT.AUTH);
      throw new CliError(`${s.baseUrl} answered HTTP ${c.status}: ${c.detail}.`, exitCodeForStatus(c.status));
    },
  },
);
