// What the full program completes from besides the tree: the saved profiles, the operations table,
// and ids from the embedded engine when asking it is cheap (its database is there; never a remote).
import type { EsignService } from '../../../service/service.js';
import { OPERATION_TABLE } from '../../../service/operationTable.js';
import type { Factory } from '../../factory.js';
import { openProfilesIfAny } from '../../profiles.js';
import type { Candidate, CompletionSources, IdKind } from './complete.js';

type ListMethod =
  | 'listBundles'
  | 'listPersons'
  | 'listWebhooks'
  | 'listTemplates'
  | 'listEnvelopeTemplates'
  | 'listWebhookHeaders';
type Item<K extends ListMethod> = Awaited<ReturnType<EsignService[K]>>['items'][number];

/** A list of the service's, as candidates: each item's id, described by its field `label`. */
const ids =
  <K extends ListMethod>(list: K, label: keyof Item<K> & string) =>
  async (s: EsignService, _prefix: string): Promise<Candidate[]> =>
    (await s[list]({ per_page: 100 })).items.map((t: Item<K>) => ({ value: t.id, description: String(t[label]) }));

/** Candidates shown at most for one word. */
const MAX_CANDIDATES = 100;

/**
 * Bundles by the prefix typed, from the slug index where the backend has one (any Bundle, not only
 * the newest); nothing typed yet, the newest.
 */
const bundleIds = async (s: EsignService, prefix: string): Promise<Candidate[]> =>
  prefix && s.bundleIdsByPrefix
    ? (await s.bundleIdsByPrefix(prefix, MAX_CANDIDATES)).map((b) => ({ value: b.id, description: b.label }))
    : ids('listBundles', 'label')(s, prefix);

/** Where the ids of each kind of object come from. */
const ID_SOURCES: Record<IdKind, (s: EsignService, prefix: string) => Promise<Candidate[]>> = {
  bundle: bundleIds,
  person: ids('listPersons', 'name'),
  webhook: ids('listWebhooks', 'name'),
  template: ids('listTemplates', 'name'),
  'envelope-template': ids('listEnvelopeTemplates', 'name'),
  header: ids('listWebhookHeaders', 'name'),
};

export function programSources(f: Factory): CompletionSources {
  return {
    /** The profiles saved (none when there is no profile file yet: nothing is made). */
    async profiles() {
      const store = await openProfilesIfAny(f.env);
      if (!store) return [];
      return Object.entries(store.all()).map(([name, p]) => ({ value: name, description: p.baseUrl ?? 'local' }));
    },
    operations: async () => OPERATION_TABLE,
    /** Ids from the local engine, when it is cheap: no remote backend, and a database already there. */
    async ids(kind, prefix) {
      const s = await f.serviceIfCheap();
      return s ? ID_SOURCES[kind](s, prefix) : [];
    },
  };
}
