// esign profile add NAME: a remote profile (--base-url, key from stdin or a hidden prompt, checked
// against the server) or a local one (the global --data-dir).
import { resolve } from 'node:path';
import { CliError, EXIT, exitCodeForStatus } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { readAll } from '../../io.js';
import { type Profile, openProfiles } from '../../profiles.js';
import { defineVerb } from '../../verb.js';
import { showProfile } from './shared/display.js';
import { checkKey } from './check.js';

export const add = defineVerb(
  'add <name>',
  'Add a profile (remote with --base-url, else local; the global --data-dir sets its data directory)',
  {
    flags: (c) =>
      c
        .option('--base-url <url>', 'API v2 base URL, e.g. https://api.example.com/api/v2')
        .option('--api-key-stdin', 'read the API key from stdin (otherwise a hidden prompt)')
        .option('--live', 'non-test Bundles may be created and sent without --live')
        .option('--use', 'make it the current profile')
        .option('--force', 'replace a profile of that name')
        .option('--no-verify', 'save without checking the key against the server first'),
    examples: [
      'printenv ESIGN_KEY | esign profile add prod --base-url https://api.example.com/api/v2 --api-key-stdin --use',
      'esign profile add sandbox --data-dir ./sandbox-data',
      'printenv KEY | esign profile add staging --base-url https://staging.example.com/api/v2 --api-key-stdin --no-verify',
    ],
    async run(f, o, name) {
      const store = await openProfiles(f.env);
      if (store.has(name) && !o.force)
        throw new CliError(`Profile "${name}" exists; pass --force to replace it.`, EXIT.USAGE);
      if (!o.baseUrl && (o.apiKeyStdin || o.live))
        throw new CliError('--api-key-stdin and --live apply to remote profiles: give --base-url too.', EXIT.USAGE);
      const p: Profile = o.baseUrl
        ? {
            baseUrl: checkBaseUrl(o.baseUrl),
            apiKey: await readKey(f, o.apiKeyStdin),
            ...(o.live ? { live: true } : {}),
          }
        : { ...(f.options.dataDir ? { dataDir: resolve(f.options.dataDir) } : {}) };
      if (p.baseUrl && o.verify !== false) {
        const c = await checkKey(f, p.baseUrl, p.apiKey);
        if (c.notApi) {
          const hint = /\/api\/v2$/.test(p.baseUrl)
            ? ''
            : ` (an API v2 base URL ends in /api/v2: ${p.baseUrl}/api/v2?)`;
          throw new CliError(
            `Not saved: --base-url ${p.baseUrl} is not an API v2 base URL${hint}: ${c.detail}. Pass --no-verify to save it anyway.`,
            EXIT.USAGE,
          );
        }
        if (!c.ok && c.status === undefined)
          throw new CliError(
            `Not saved: nothing answered at --base-url ${p.baseUrl} (${c.detail}), so the key was not checked: is the server running? Pass --no-verify to save it anyway.`,
            EXIT.FAILURE,
          );
        if (!c.ok)
          throw new CliError(
            `Not saved: ${p.baseUrl} did not accept the key (${c.detail}). Pass --no-verify to save it anyway.`,
            c.status ? exitCodeForStatus(c.status) : EXIT.FAILURE,
          );
      }
      store.set(name, p);
      if (o.use) store.use(name);
      await showProfile(f, name, p, store.current() === name);
    },
  },
);

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
