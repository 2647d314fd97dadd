// What the profile verbs share: how a profile is shown, and whether its key still works.
import type { Factory } from '../../../factory.js';
import type { Out } from '../../../output/print.js';
import { printObject } from '../../../output/print.js';
import { type Profile, redactKey } from '../../../profiles.js';
import { checkKey } from '../check.js';

export const backend = (p: Profile) => (p.baseUrl ? 'remote' : 'local');

/** `key_works` (true, false, or null for the local engine) and, when it does not, why. */
export async function keyWorks(
  f: Factory,
  baseUrl: string | undefined,
  apiKey: string | undefined,
): Promise<{ key_works: boolean | null; key_check?: string }> {
  if (!baseUrl) return { key_works: null };
  const c = await checkKey(f, baseUrl, apiKey);
  return c.ok ? { key_works: true } : { key_works: false, key_check: c.detail };
}

export async function showProfile(o: Out, name: string, p: Profile, current: boolean, check?: object): Promise<void> {
  const shown = {
    name,
    current,
    backend: backend(p),
    base_url: p.baseUrl ?? null,
    api_key: redactKey(p.apiKey) || null,
    live: Boolean(p.live),
    data_dir: p.dataDir ?? null,
    ...check,
  };
  await printObject(o, shown, Object.entries(shown), name);
}
