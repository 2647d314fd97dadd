// esign bundle tags add|remove SLUG TAG...: SLUG may be ID,ID,... or - for ids from stdin (the tags
// take the trailing arguments, so the ids cannot).
import type { Command } from '@commander-js/extra-typings';
import type { Bundle } from '../../../service/types.js';
import { forEachId, readIds } from '../../bulk.js';
import type { Factory } from '../../factory.js';
import type { Action } from '../../run.js';
import { showBundle } from './show.js';

export interface TagsOptions {
  slug: string;
  tags: string[];
}

export function register(bundle: Command, action: Action): void {
  const tags = bundle.command('tags').description('Add or remove tags');
  tags
    .command('add <slug> <tags...>')
    .description('Add tags (duplicates are ignored); SLUG may be ID,ID,... or - for ids from stdin')
    .action(action(async (f, _o: object, slug: string, list: string[]) => runAdd(f, { slug, tags: list })));
  tags
    .command('remove <slug> <tags...>')
    .description('Remove tags (absent tags are ignored); SLUG may be ID,ID,... or - for ids from stdin')
    .action(action(async (f, _o: object, slug: string, list: string[]) => runRemove(f, { slug, tags: list })));
}

async function eachBundle(f: Factory, slug: string, fn: (id: string) => Promise<Bundle>): Promise<void> {
  const ids = await readIds(f, slug === '-' ? ['-'] : slug.split(',').filter(Boolean));
  await forEachId(
    f,
    ids,
    fn,
    (b) => b.tags.join(' '),
    (b) => showBundle(f, b),
  );
}

export async function runAdd(f: Factory, o: TagsOptions): Promise<void> {
  const service = await f.service();
  await eachBundle(f, o.slug, (id) => service.addBundleTags(id, o.tags));
}

export async function runRemove(f: Factory, o: TagsOptions): Promise<void> {
  const service = await f.service();
  await eachBundle(f, o.slug, (id) => service.removeBundleTags(id, o.tags));
}
