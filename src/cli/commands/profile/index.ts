// esign profile ...: named connections (a remote API v2 server with its key, or a local data directory).
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CliError, EXIT, exitCodeForStatus } from '../../exitCodes.js';
import { type Out, printList, printObject } from '../../output.js';
import { type Profile, configDir, openProfiles, openProfilesIfAny, redactKey } from '../../profiles.js';
import { confirm, type Action } from '../../run.js';
import { readAll } from '../../io.js';
import type { Factory } from '../../factory.js';

interface AddOptions {
  baseUrl?: string;
  apiKeyStdin?: boolean;
  live?: boolean;
  use?: boolean;
  force?: boolean;
  verify?: boolean;
}

function checkBaseUrl(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new CliError(`--base-url "${value}" is not a URL (e.g. https://api.example.com/api/v2).`, EXIT.USAGE);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new CliError(`--base-url must be http(s), got ${u.protocol}`, EXIT.USAGE);
  return value.replace(/\/+$/, '');
}

/** The key from stdin (first line), or a hidden prompt on a terminal; never from a flag, where shells keep history. */
async function readKey(f: Factory, fromStdin: boolean | undefined): Promise<string> {
  let key: string;
  if (fromStdin) key = (await readAll(f.io.stdin)).split(/\r?\n/)[0]!.trim();
  else if (f.io.interactive) {
    key = (await f.prompter.password('API key')).trim();
  } else throw new CliError('A remote profile needs an API key: pipe it in with --api-key-stdin (e.g. printenv KEY | esign profile add ...).', EXIT.USAGE);
  if (!key) throw new CliError('The API key is empty.', EXIT.USAGE);
  return key;
}

const backend = (p: Profile) => (p.baseUrl ? 'remote' : 'local');

export function register(program: Command, action: Action): void {
  const profile = program.command('profile').description('Named connections: a remote API v2 server and key, or a local data directory');

  profile.command('add <name>')
    .description('Add a profile (remote with --base-url, else local; the global --data-dir sets its data directory)')
    .option('--base-url <url>', 'API v2 base URL, e.g. https://api.example.com/api/v2')
    .option('--api-key-stdin', 'read the API key from stdin (otherwise a hidden prompt)')
    .option('--live', 'non-test Bundles may be created and sent without --live')
    .option('--use', 'make it the current profile')
    .option('--force', 'replace a profile of that name')
    .option('--no-verify', 'save without checking the key against the server first')
    .action(action(async (ctx, o: AddOptions, name: string) => {
      const store = await openProfiles(ctx.env);
      if (store.has(name) && !o.force) throw new CliError(`Profile "${name}" exists; pass --force to replace it.`, EXIT.USAGE);
      if (!o.baseUrl && (o.apiKeyStdin || o.live)) throw new CliError('--api-key-stdin and --live apply to remote profiles: give --base-url too.', EXIT.USAGE);
      const p: Profile = o.baseUrl
        ? { baseUrl: checkBaseUrl(o.baseUrl), apiKey: await readKey(ctx, o.apiKeyStdin), ...(o.live ? { live: true } : {}) }
        : { ...(ctx.options.dataDir ? { dataDir: resolve(ctx.options.dataDir) } : {}) };
      if (p.baseUrl && o.verify !== false) {
        const { checkKey } = await import('./check.js');
        const c = await checkKey(p.baseUrl, p.apiKey);
        if (!c.ok)
          throw new CliError(`Not saved: ${p.baseUrl} did not accept the key (${c.detail}). Pass --no-verify to save it anyway.`, c.status ? exitCodeForStatus(c.status) : EXIT.FAILURE);
      }
      store.set(name, p);
      if (o.use) store.use(name);
      await showProfile(ctx, name, p, store.current() === name);
    }));

  profile.command('list', { isDefault: true }).description('List profiles (* marks the current one)')
    .action(action(async (ctx) => {
      const store = await openProfilesIfAny(ctx.env);
      const current = store?.current();
      const rows = Object.entries(store?.all() ?? {}).map(([name, p]) => ({ name, ...p }));
      await printList(ctx, rows, [
        { header: 'CURRENT', value: (r) => (r.name === current ? '*' : '') }, { header: 'NAME', value: (r) => r.name },
        { header: 'BACKEND', value: backend }, { header: 'BASE_URL', value: (r) => r.baseUrl ?? '' },
        { header: 'KEY', value: (r) => redactKey(r.apiKey) }, { header: 'LIVE', value: (r) => Boolean(r.live) },
        { header: 'DATA_DIR', value: (r) => r.dataDir ?? '' },
      ], (r) => r.name, rows.map(({ apiKey, ...r }) => ({ ...r, current: r.name === current, api_key: redactKey(apiKey) })));
    }));

  profile.command('use [name]').description('Make a profile current (--none: back to the default local engine)')
    .option('--none', 'no current profile')
    .action(action(async (ctx, o: { none?: boolean }, name?: string) => {
      if (!name === !o.none) throw new CliError('Give a profile name, or --none.', EXIT.USAGE);
      const store = await openProfiles(ctx.env);
      if (name) store.use(name);
      else store.use(undefined);
      ctx.io.err.write(name ? `Using profile "${name}".\n` : 'No current profile: commands use the local engine.\n');
    }));

  profile.command('show [name]')
    .description('A stored profile, or without a name what commands use now (after flags and environment); a remote key is checked against its server')
    .option('--no-check', 'do not ask the server whether the key still works')
    .action(action(async (ctx, o: { check?: boolean }, name?: string) => {
      if (name) {
        const store = await openProfiles(ctx.env);
        const p = store.get(name);
        return showProfile(ctx, name, p, store.current() === name, o.check === false ? undefined : await keyWorks(p.baseUrl, p.apiKey));
      }
      const s = await ctx.settings();
      const shown = {
        profile: s.profile ?? null, backend: s.baseUrl ? 'remote' : 'local', base_url: s.baseUrl ?? null,
        api_key: redactKey(s.apiKey) || null, live: s.live, data_dir: s.baseUrl ? null : await ctx.dataDir(),
        config_dir: await configDir(ctx.env),
        ...(o.check === false ? {} : await keyWorks(s.baseUrl, s.apiKey)),
      };
      await printObject(ctx, shown, Object.entries(shown), s.profile ?? '');
    }));

  profile.command('remove <name>').description('Remove a profile and its key')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(async (ctx, o: { yes?: boolean }, name: string) => {
      const store = await openProfiles(ctx.env);
      store.get(name);
      await confirm(ctx, `Remove profile "${name}" and its key?`, o.yes);
      store.remove(name);
    }));
}

/** `key_works` (true, false, or null for the local engine) and, when it does not, why. */
async function keyWorks(baseUrl: string | undefined, apiKey: string | undefined): Promise<{ key_works: boolean | null; key_check?: string }> {
  if (!baseUrl) return { key_works: null };
  const { checkKey } = await import('./check.js');
  const c = await checkKey(baseUrl, apiKey);
  return c.ok ? { key_works: true } : { key_works: false, key_check: c.detail };
}

async function showProfile(o: Out, name: string, p: Profile, current: boolean, check?: object): Promise<void> {
  const shown = {
    name, current, backend: backend(p), base_url: p.baseUrl ?? null, api_key: redactKey(p.apiKey) || null,
    live: Boolean(p.live), data_dir: p.dataDir ?? null, ...check,
  };
  await printObject(o, shown, Object.entries(shown), name);
}
