// esign profile add NAME: a remote profile (--base-url, key from stdin or a hidden prompt, checked
// against the server) or a local one (the global --data-dir).
import { resolve } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { CliError, EXIT, exitCodeForStatus } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { readAll } from '../../io.js';
import { type Profile, openProfiles } from '../../profiles.js';
import type { Action } from '../../run.js';
import { showProfile } from './view.js';

export interface AddOptions {
  name: string;
  baseUrl?: string;
  apiKeyStdin?: boolean;
  live?: boolean;
  use?: boolean;
  force?: boolean;
  verify?: boolean;
}

export function register(profile: Command, action: Action): void {
  profile
    .command('add <name>')
    .description('Add a profile (remote with --base-url, else local; the global --data-dir sets its data directory)')
    .option('--base-url <url>', 'API v2 base URL, e.g. https://api.example.com/api/v2')
    .option('--api-key-stdin', 'read the API key from stdin (otherwise a hidden prompt)')
    .option('--live', 'non-test Bundles may be created and sent without --live')
    .option('--use', 'make it the current profile')
    .option('--force', 'replace a profile of that name')
    .option('--no-verify', 'save without checking the key against the server first')
    .action(action(async (f, o: Omit<AddOptions, 'name'>, name: string) => run(f, { ...o, name })));
}

export async function run(f: Factory, o: AddOptions): Promise<void> {
  const store = await openProfiles(f.env);
  if (store.has(o.name) && !o.force)
    throw new CliError(`Profile "${o.name}" exists; pass --force to replace it.`, EXIT.USAGE);
  if (!o.baseUrl && (o.apiKeyStdin || o.live))
    throw new CliError('--api-key-stdin and --live apply to remote profiles: give --base-url too.', EXIT.USAGE);
  const p: Profile = o.baseUrl
    ? { baseUrl: checkBaseUrl(o.baseUrl), apiKey: await readKey(f, o.apiKeyStdin), ...(o.live ? { live: true } : {}) }
    : { ...(f.options.dataDir ? { dataDir: resolve(f.options.dataDir) } : {}) };
  if (p.baseUrl && o.verify !== false) {
    const { checkKey } = await import('./check.js');
    const c = await checkKey(p.baseUrl, p.apiKey);
    if (!c.ok)
      throw new CliError(
        `Not saved: ${p.baseUrl} did not accept the key (${c.detail}). Pass --no-verify to save it anyway.`,
        c.status ? exitCodeForStatus(c.status) : EXIT.FAILURE,
      );
  }
  store.set(o.name, p);
  if (o.use) store.use(o.name);
  await showProfile(f, o.name, p, store.current() === o.name);
}

function checkBaseUrl(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new CliError(`--base-url "${value}" is not a URL (e.g. https://api.example.com/api/v2).`, EXIT.USAGE);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new CliError(`--base-url must be http(s), got ${u.protocol}`, EXIT.USAGE);
  return value.replace(/\/+$/, '');
}

/** The key from stdin (first line), or a hidden prompt on a terminal; never from a flag, where shells keep history. */
async function readKey(f: Factory, fromStdin: boolean | undefined): Promise<string> {
  let key: string;
  if (fromStdin) key = (await readAll(f.io.stdin)).split(/\r?\n/)[0]!.trim();
  else if (f.io.interactive) {
    key = (await f.prompter.password('API key')).trim();
  } else
    throw new CliError(
      'A remote profile needs an API key: pipe it in with --api-key-stdin (e.g. printenv KEY | esign profile add ...).',
      EXIT.USAGE,
    );
  if (!key) throw new CliError('The API key is empty.', EXIT.USAGE);
  return key;
}
