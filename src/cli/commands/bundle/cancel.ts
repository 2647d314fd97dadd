// esign bundle cancel SLUG...: cancel Bundles that are not complete (asks first, or --yes);
// several ids, or - for ids from stdin.
import { readIds } from '../../bulk.js';
import { confirm } from '../../run.js';
import { defineVerb } from '../../verb.js';
import { eachBundle } from './shared/display.js';

export const cancel = defineVerb(
  'cancel <slugs...>',
  'Cancel Bundles that are not complete (several ids, or - for ids from stdin)',
  {
    flags: (c) => c.option('-y, --yes', 'do not ask for confirmation'),
    examples: ['esign bundle cancel 9KwSrpJdyp', 'esign bundle cancel 9KwSrpJdyp --yes'],
    async run(f, o, slugs) {
      const ids = await readIds(f, slugs);
      await confirm(
        f,
        ids.length === 1
          ? `Cancel Bundle ${ids[0]}? Signers can no longer sign it.`
          : `Cancel ${ids.length} Bundles? Signers can no longer sign them.`,
        o.yes,
      );
      const service = await f.service();
      await eachBundle(f, ids, (slug) => service.cancelBundle(slug));
    },
  },
);
