// esign template list: Document Templates, optionally by metadata.
import type { DocumentTemplate } from '../../../service/types.js';
import { fieldColumns, keyValueItems } from '../../output/print.js';
import { collect, keyValues } from '../../run.js';
import { listVerb } from '../../verb.js';

export const list = listVerb('list', 'List Document Templates', {
  flags: (c) =>
    c.option(
      '--metadata <key=value>',
      'only templates whose metadata has this value (repeatable; all must match)',
      collect,
    ),
  examples: ['esign template list', 'esign template list --metadata region=emea --all --json'],
  pages: (o) => {
    const metadata = o.metadata?.length ? Object.fromEntries(keyValues(o.metadata, '--metadata')) : undefined;
    return (s, q) => s.listTemplates({ ...q, metadata });
  },
  columns: [
    ...fieldColumns<DocumentTemplate>(['id', 'name']),
    { header: 'ROLES', value: (t) => t.roles.map((r) => r.key) },
    { header: 'SHARED', value: (t) => t.is_shared },
    { header: 'METADATA', value: (t) => keyValueItems(t.metadata) },
  ],
  id: (t) => t.id,
});
