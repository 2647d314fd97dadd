// esign bundle list: Bundles, newest first, filtered and paged.
import type { Command } from 'commander';
import type { BundleListQuery } from '../../../service/types.js';
import type { Factory } from '../../factory.js';
import { printList } from '../../output.js';
import { type PageFlags, addPageOptions, fetchPages } from '../../paging.js';
import type { Action } from '../../run.js';
import { BUNDLE_COLUMNS } from './show.js';

export interface ListOptions extends PageFlags {
  search?: string;
  status?: string;
  statusIn?: string;
  tag?: string;
  tagIn?: string;
  ordering: string;
  createdAfter?: string;
  createdBefore?: string;
  sentAfter?: string;
  sentBefore?: string;
  completedAfter?: string;
  completedBefore?: string;
  template?: string;
}

export function register(bundle: Command, action: Action): void {
  addPageOptions(bundle
    .command('list')
    .description('List Bundles, newest first')
    .option('--search <text>', 'slug, label, custom key, signer name, email or phone')
    .option('--status <code>', 'one status code (dr, pe, se, st, co, ca, ex, fa, de)')
    .option('--status-in <codes>', 'comma-separated status codes')
    .option('--tag <tag>', 'Bundles having the tag')
    .option('--tag-in <tags>', 'comma-separated; at least one matches')
    .option('--ordering <field>', 'created, sent or completed_at; prefix - to reverse', '-created')
    .option('--created-after <date>').option('--created-before <date>')
    .option('--sent-after <date>').option('--sent-before <date>')
    .option('--completed-after <date>').option('--completed-before <date>')
    .option('--template <uuid>', 'only Bundles made from that Document Template'))
    .action(action(run));
}

export async function run(f: Factory, o: ListOptions): Promise<void> {
  const service = await f.service();
  const query: BundleListQuery = {
    search: o.search, status: o.status, status__in: o.statusIn, tag: o.tag, tag__in: o.tagIn, ordering: o.ordering,
    created_after: o.createdAfter, created_before: o.createdBefore, sent_after: o.sentAfter, sent_before: o.sentBefore,
    completed_after: o.completedAfter, completed_before: o.completedBefore, template: o.template,
  };
  const items = await fetchPages(f, (q) => service.listBundles({ ...query, ...q }), o);
  await printList(f, items, BUNDLE_COLUMNS, (b) => b.id);
}
