// esign bundle tags add|remove SLUG TAG...: SLUG may be ID,ID,... or - for ids from stdin (the tags
// take the trailing arguments, so the ids cannot).
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { EsignService } from '../../../service/service.js';
import type { Bundle } from '../../../service/types.js';
import type { Action } from '../../run.js';
import { type Parent, customVerb, registerVerbs } from '../../verb.js';
import { eachBundle } from './shared/display.js';

type Change = (service: EsignService, id: string, tags: string[]) => Promise<Bundle>;

/** `tags <name> <slug> <tags...>`: `change` on every Bundle named, each shown by its tags. */
const tagsVerb = (name: string, description: string, examples: string[], change: Change) =>
  customVerb({
    // A name known only at run time hides the arguments from the type inference: a slug, then tags.
    command: (tags: Parent) =>
      tags
        .command(`${name} <slug> <tags...>`)
        .description(`${description}; SLUG may be ID,ID,... or - for ids from stdin`) as Command<
        [string, string[]],
        OptionValues,
        OptionValues
      >,
    examples,
    async run(f, _o, slug, list) {
      const service = await f.service();
      const ids = slug === '-' ? ['-'] : slug.split(',').filter(Boolean);
      await eachBundle(
        f,
        ids,
        (id) => change(service, id, list),
        (b) => b.tags.join(' '),
      );
    },
  });

const add = tagsVerb(
  'add',
  'Add tags (duplicates are ignored)',
  ['esign bundle tags add 9KwSrpJdyp legal renewal', 'esign bundle tags add 9KwSrpJdyp q4 --json'],
  (s, id, tags) => s.addBundleTags(id, tags),
);

export const remove = tagsVerb(
  'remove',
  'Remove tags (absent tags are ignored)',
  ['esign bundle tags remove 9KwSrpJdyp renewal', 'esign bundle tags remove 9KwSrpJdyp legal q4'],
  (s, id, tags) => s.removeBundleTags(id, tags),
);

/** `esign bundle tags`: a noun of its own under bundle. */
export function registerTags(bundle: Parent, action: Action): void {
  registerVerbs(bundle.command('tags').description('Add or remove tags'), action, [add, remove]);
}
