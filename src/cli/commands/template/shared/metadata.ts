// The metadata flags of templates: `--metadata k=v` and `metadata set k=v`.
import { CliError, EXIT } from '../../../exitCodes.js';
import { keyValues } from '../../../run.js';

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
