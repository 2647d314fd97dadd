// esign bundle send SLUG...: send draft (or pending) Bundles; several ids, or - for ids from stdin.
import { rethrowAsStateConflict } from '../../exitCodes.js';
import { defineVerb } from '../../verb.js';
import { eachBundle } from './shared/display.js';

export const send = defineVerb(
  'send <slugs...>',
  'Send draft (or pending) Bundles (several ids, or - for ids from stdin)',
  {
    flags: (c) => c.option('--live', 'on a remote server, really send a non-test Bundle'),
    examples: [
      'esign bundle send 9KwSrpJdyp',
      'esign bundle send 9KwSrpJdyp Q4mT2vXbLc --live',
      'esign bundle list -q --status dr | esign bundle send -',
    ],
    async run(f, o, slugs) {
      const service = await f.service();
      await eachBundle(f, slugs, async (slug) => {
        // Whether the draft is a test Bundle is asked only when it matters (messages really go out, not live).
        await f.requireLive(async () => (await service.getBundle(slug)).is_test, o.live, 'send');
        // Sent already, cancelled, complete: the Bundle's state refuses it, whatever the request.
        return service
          .sendBundle(slug)
          .catch((e: unknown) =>
            rethrowAsStateConflict(e, 'sendBundle', async () => (await service.getBundle(slug)).status),
          );
      });
    },
  },
);
