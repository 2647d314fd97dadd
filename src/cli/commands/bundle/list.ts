// esign bundle list: Bundles, newest first, filtered and paged.
import type { Command } from '@commander-js/extra-typings';
import { BUNDLE_ORDERINGS, BUNDLE_STATUSES } from '../../../service/enums.js';
import type { BundleListQuery } from '../../../service/types.js';
import type { Factory } from '../../factory.js';
import { choiceListOption, choiceOption, dayArg } from '../../flags.js';
import { printList } from '../../output/print.js';
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

const ORDERINGS = BUNDLE_ORDERINGS.flatMap((o) => [o, `-${o}`]);

export function register(bundle: Command, action: Action): void {
  addPageOptions(
    bundle
      .command('list')
      .description('List Bundles, newest first')
      .option('--search <text>', 'slug, label, custom key, signer name, email or phone')
      .addOption(choiceOption('--status <code>', 'one status code', BUNDLE_STATUSES))
      .addOption(choiceListOption('--status-in <codes>', 'comma-separated status codes', BUNDLE_STATUSES))
      .option('--tag <tag>', 'Bundles having the tag')
      .option('--tag-in <tags>', 'comma-separated; at least one matches')
      .addOption(choiceOption('--ordering <field>', 'prefix - to reverse', ORDERINGS).default('-created'))
      .option('--created-after <date>', 'YYYY-MM-DD', dayArg)
      .option('--created-before <date>', 'YYYY-MM-DD', dayArg)
      .option('--sent-after <date>', 'YYYY-MM-DD', dayArg)
      .option('--sent-before <date>', 'YYYY-MM-DD', dayArg)
      .option('--completed-after <date>', 'YYYY-MM-DD', dayArg)
      .option('--completed-before <date>', 'YYYY-MM-DD', dayArg)
      .option('--template <uuid>', 'only Bundles made from that Document Template'),
  ).action(action(run));
}

export async function run(f: Factory, o: ListOptions): Promise<void> {
  const service = await f.service();
  const query: BundleListQuery = {
    search: o.search,
    status: o.status,
    status__in: o.statusIn,
    tag: o.tag,
    tag__in: o.tagIn,
    ordering: o.ordering,
    created_after: o.createdAfter,
    created_before: o.createdBefore,
    sent_after: o.sentAfter,
    sent_before: o.sentBefore,
    completed_after: o.completedAfter,
    completed_before: o.completedBefore,
    template: o.template,
  };
  const items = await fetchPages(f, (q) => service.listBundles({ ...query, ...q }), o);
  await printList(f, items, BUNDLE_COLUMNS, (b) => b.id);
}
