// How a Bundle is shown: the list columns and the key/value view every bundle verb prints.
import { bundleStateWord, docStateWord, signerStateWord } from '../../../service/states.js';
import type { Bundle } from '../../../service/types.js';
import { type Column, type Out, printObject } from '../../output/print.js';

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
  const pairs: [string, unknown][] = [
    ['id', b.id],
    ['status', word(bundleStateWord, b.status)],
    ['label', b.label],
    ['created', b.created],
    ['sent', b.sent],
    ['completed_at', b.completed_at],
    ['expires', b.expires],
    ['is_test', b.is_test],
    ['in_order', b.in_order],
    ['doc_status', word(docStateWord, b.doc_status)],
    ['custom_key', b.custom_key],
    ['tags', b.tags],
    ['documents', b.documents.map((d) => `${d.key} (${d.name})`)],
    ...b.packets.map((p, i): [string, unknown] => [
      `signer ${i + 1}`,
      `${p.name} <${p.deliver_via === 'phone' ? p.phone : (p.email ?? '')}> ${p.deliver_via} ${o.io.out.isTTY ? signerStateWord(p.status, b.status) : p.status} ${p.id}`,
    ]),
    ...b.errors.map((e, i): [string, unknown] => [`error ${i + 1}`, e.message]),
  ];
  await printObject(o, b, pairs, b.id);
}
