// esign bundle tags add|remove SLUG TAG...: SLUG may be ID,ID,... or - for ids from stdin (the tags
// take the trailing arguments, so the ids cannot).
import type { OptionValues } from '@commander-js/extra-typings';
import type { EsignService } from '../../../service/service.js';
import type { Bundle } from '../../../service/types.js';
import type { Factory } from '../../factory.js';
import type { Action } from '../../run.js';
import { type Parent, defineVerb, registerVerbs } from '../../verb.js';
import { eachBundle } from './shared/display.js';

type Change = (service: EsignService, id: string, tags: string[]) => Promise<Bundle>;

/** The body of both verbs: `change` on every Bundle named, each shown by its tags. */
const changeTags = (change: Change) => async (f: Factory, _o: OptionValues, slug: string, tags: string[]) => {
  const service = await f.service();
  const ids = slug === '-' ? ['-'] : slug.split(',').filter(Boolean);
  await eachBundle(
    f,
    ids,
    (id) => change(service, id, tags),
    (b) => b.tags.join(' '),
  );
};

export const add = defineVerb({
  command: (tags: Parent) =>
    tags
      .command('add <slug> <tags...>')
      .description('Add tags (duplicates are ignored); SLUG may be ID,ID,... or - for ids from stdin'),
  examples: ['esign bundle tags add 9KwSrpJdyp legal renewal', 'esign bundle tags add 9KwSrpJdyp q4 --json'],
  run: changeTags((s, id, tags) => s.addBundleTags(id, tags)),
});

export const remove = defineVerb({
  command: (tags: Parent) =>
    tags
      .command('remove <slug> <tags...>')
      .description('Remove tags (absent tags are ignored); SLUG may be ID,ID,... or - for ids from stdin'),
  examples: ['esign bundle tags remove 9KwSrpJdyp renewal', 'esign bundle tags remove 9KwSrpJdyp legal q4'],
  run: changeTags((s, id, tags) => s.removeBundleTags(id, tags)),
});

/** `esign bundle tags`: a noun of its own under bundle. */
export function registerTags(bundle: Parent, action: Action): void {
  registerVerbs(bundle.command('tags').description('Add or remove tags'), action, [add, remove]);
}
