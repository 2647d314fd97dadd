// esign profile show [NAME]: a stored profile, or what commands use now; a remote key is checked.
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printObject } from '../../output/print.js';
import { configDir, openProfiles, redactKey } from '../../profiles.js';
import type { Action } from '../../run.js';
import { keyWorks, showProfile } from './view.js';

export interface ShowOptions {
  name?: string;
  /** false with --no-check. */
  check?: boolean;
}

export function register(profile: Command, action: Action): void {
  profile
    .command('show [name]')
    .description(
      'A stored profile, or without a name what commands use now (after flags and environment); a remote key is checked against its server',
    )
    .option('--no-check', 'do not ask the server whether the key still works')
    .action(action(async (f, o: Omit<ShowOptions, 'name'>, name?: string) => run(f, { ...o, name })));
}

export async function run(f: Factory, o: ShowOptions): Promise<void> {
  if (o.name) {
    const store = await openProfiles(f.env);
    const p = store.get(o.name);
    return showProfile(
      f,
      o.name,
      p,
      store.current() === o.name,
      o.check === false ? undefined : await keyWorks(p.baseUrl, p.apiKey),
    );
  }
  const s = await f.settings();
  const shown = {
    profile: s.profile ?? null,
    backend: s.baseUrl ? 'remote' : 'local',
    base_url: s.baseUrl ?? null,
    api_key: redactKey(s.apiKey) || null,
    live: s.live,
    data_dir: s.baseUrl ? null : await f.dataDir(),
    config_dir: await configDir(f.env),
    ...(o.check === false ? {} : await keyWorks(s.baseUrl, s.apiKey)),
  };
  await printObject(f, shown, Object.entries(shown), s.profile ?? '');
}
