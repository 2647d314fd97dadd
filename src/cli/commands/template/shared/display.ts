// How Document Templates and preparation sessions are shown.
import type { DocumentTemplate, EmbedUrl } from '../../../../service/types.js';
import { type Out, fieldsOf, keyValueItems, printObject } from '../../../output/print.js';

export async function showTemplate(o: Out, t: DocumentTemplate): Promise<void> {
  await printObject(
    o,
    t,
    [
      ...fieldsOf(t, ['id', 'name', 'is_shared']),
      ['roles', t.roles.map((r) => (r.label && r.label !== r.key ? `${r.key} (${r.label})` : r.key))],
      ['fields', t.fields.map((f) => String(f.key ?? f.label ?? f.kind ?? '?'))],
      ['metadata', keyValueItems(t.metadata)],
      ...fieldsOf(t, ['teams', 'file_url']),
    ],
    t.id,
  );
}

/** A preparation session: its single-use URL and when it expires. */
export const showSession = (o: Out, u: EmbedUrl) => printObject(o, u, fieldsOf(u, ['url', 'expires']), u.url);
