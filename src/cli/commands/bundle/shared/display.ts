// How a Bundle is shown: the list columns and the key/value view every bundle verb prints.
import { bundleStateWord, signedFilesWord, signerStateWord } from '../../../../domain/states.js';
import type { Bundle } from '../../../../service/types.js';
import { forEachId, readIds } from '../../../bulk.js';
import type { Factory } from '../../../factory.js';
import { type Column, type Out, fieldsOf, printObject } from '../../../output/print.js';

export const BUNDLE_COLUMNS: Column<Bundle>[] = [
  { header: 'ID', value: (b) => b.id, kind: 'id' },
  { header: 'STATUS', value: (b) => b.status, kind: 'bundle-status', priority: 1 },
  { header: 'LABEL', value: (b) => b.label },
  { header: 'SIGNERS', value: (b) => b.packets.map((p) => p.name) },
  { header: 'TAGS', value: (b) => b.tags, priority: -1 },
  { header: 'CREATED', value: (b) => b.created, kind: 'time', priority: 1 },
];

export async function showBundle(o: Out, b: Bundle): Promise<void> {
  // States in words on a terminal; codes when piped (and in --json).
  const word = (w: (code: string) => string, code: string) => (o.io.out.isTTY ? w(code) : code);
  const signer = (p: Bundle['packets'][number]) => {
    const address = p.deliver_via === 'phone' ? p.phone : (p.email ?? '');
    const status = o.io.out.isTTY ? signerStateWord(p.status, b.status) : p.status;
    return `${p.name} <${address}> ${p.deliver_via} ${status} ${p.id}`;
  };
  const pairs: [string, unknown][] = [
    ['id', b.id],
    ['status', word(bundleStateWord, b.status)],
    ...fieldsOf(b, ['label', 'created', 'sent', 'completed_at', 'expires', 'is_test', 'in_order']),
    ['doc_status', o.io.out.isTTY ? signedFilesWord(b) : b.doc_status],
    ...fieldsOf(b, ['custom_key', 'tags']),
    ['documents', b.documents.map((d) => `${d.key} (${d.name})`)],
    ...b.packets.map((p, i): [string, unknown] => [`signer ${i + 1}`, signer(p)]),
    ...b.errors.map((e, i): [string, unknown] => [`error ${i + 1}`, e.message]),
  ];
  await printObject(o, b, pairs, b.id);
}

/**
 * Runs `change` on each Bundle named (several ids, or - for ids from stdin): one Bundle is shown
 * whole, several as one summary row each (`describe`: its status, unless told otherwise).
 */
export async function eachBundle(
  f: Factory,
  ids: string[],
  change: (id: string) => Promise<Bundle>,
  describe: (b: Bundle) => string = (b) => b.status,
): Promise<void> {
  await forEachId(f, await readIds(f, ids), change, describe, (b) => showBundle(f, b));
}
