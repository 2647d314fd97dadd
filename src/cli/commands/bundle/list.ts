// esign bundle list: Bundles, newest first, filtered and paged.
import { BUNDLE_ORDERINGS, BUNDLE_STATUSES } from '../../../domain/enums.js';
import type { BundleListQuery } from '../../../service/types.js';
import { choiceListOption, choiceOption, dayArg } from '../../flags.js';
import { findBundles, searchText } from '../../../app/bundleSearch.js';
import { note, printList } from '../../output/print.js';
import { addPageOptions, fetchPages } from '../../paging.js';
import { defineVerb } from '../../verb.js';
import { BUNDLE_COLUMNS } from './shared/display.js';

const ORDERINGS = BUNDLE_ORDERINGS.flatMap((o) => [o, `-${o}`]);

export const list = defineVerb('list', 'List Bundles, newest first', {
  flags: (c) =>
    addPageOptions(
      c
        .option('--search <text>', 'slug, label, custom key, signer name, email or phone; or a packet id')
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
    ),
  examples: [
    'esign bundle list --status se --limit 20',
    'esign bundle list --tag-in legal,hr --created-after 2025-01-01 --all --json',
    'esign bundle list -q --status co',
  ],
  async run(f, o) {
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
    // The console's rule too: a packet id finds its Bundle.
    let packetOf: string | undefined;
    const items = await fetchPages(
      f,
      async (q) => {
        const found = await findBundles(service, { ...query, ...q });
        packetOf ??= found.packetOf;
        return found.page;
      },
      o,
    );
    await printList(f, items, BUNDLE_COLUMNS, (b) => b.id);
    if (packetOf && items.length && !f.options.json && !f.options.quiet)
      note(f, `${searchText(o.search)} is a signer's packet id, of Bundle ${packetOf}.`);
  },
});
