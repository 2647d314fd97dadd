// How Document Templates and preparation sessions are shown, and the --metadata flags they take.
import type { DocumentTemplate, EmbedUrl } from '../../../service/types.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { type Out, keyValueItems, printObject } from '../../output/print.js';
import { keyValues } from '../../run.js';

export async function showTemplate(o: Out, t: DocumentTemplate): Promise<void> {
  await printObject(
    o,
    t,
    [
      ['id', t.id],
      ['name', t.name],
      ['is_shared', t.is_shared],
      ['roles', t.roles.map((r) => (r.label && r.label !== r.key ? `${r.key} (${r.label})` : r.key))],
      ['fields', t.fields.map((f) => String(f.key ?? f.label ?? f.kind ?? '?'))],
      ['metadata', keyValueItems(t.metadata)],
      ['teams', t.teams],
      ['file_url', t.file_url],
    ],
    t.id,
  );
}

/** A preparation session: its single-use URL and when it expires. */
export async function showSession(o: Out, u: EmbedUrl): Promise<void> {
  await printObject(
    o,
    u,
    [
      ['url', u.url],
      ['expires', u.expires],
    ],
    u.url,
  );
}

/** `--metadata k=v` flags as an object; values must not be empty ("" deletes a key in a PATCH). */
export function metadataFlags(list: string[] | undefined, flag = '--metadata'): Record<string, string> | undefined {
  if (!list?.length) return undefined;
  const pairs = keyValues(list, flag);
  for (const [k, v] of pairs)
    if (v === '')
      throw new CliError(
        `${flag} ${k}=: an empty value deletes the key; use esign template metadata unset to remove it.`,
        EXIT.USAGE,
      );
  return Object.fromEntries(pairs);
}
