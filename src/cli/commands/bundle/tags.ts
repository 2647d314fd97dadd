// esign bundle tags add|remove SLUG TAG...
import type { Command } from 'commander';
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
    .description('Add tags (duplicates are ignored)')
    .action(action(async (f, _o: object, slug: string, list: string[]) => runAdd(f, { slug, tags: list })));
  tags
    .command('remove <slug> <tags...>')
    .description('Remove tags (absent tags are ignored)')
    .action(action(async (f, _o: object, slug: string, list: string[]) => runRemove(f, { slug, tags: list })));
}

export async function runAdd(f: Factory, o: TagsOptions): Promise<void> {
  await showBundle(f, await (await f.service()).addBundleTags(o.slug, o.tags));
}

export async function runRemove(f: Factory, o: TagsOptions): Promise<void> {
  await showBundle(f, await (await f.service()).removeBundleTags(o.slug, o.tags));
}
