// esign profile show [NAME]: a stored profile, or what commands use now; a remote key is checked.
import { printObject } from '../../output/print.js';
import { configDir, openProfiles, redactKey } from '../../profiles.js';
import { defineVerb } from '../../verb.js';
import { keyWorks, showProfile } from './shared/display.js';

export const show = defineVerb(
  'show [name]',
  'A stored profile, or without a name what commands use now (after flags and environment); a remote key is checked against its server',
  {
    flags: (c) => c.option('--no-check', 'do not ask the server whether the key still works'),
    examples: ['esign profile show', 'esign profile show prod --json'],
    async run(f, o, name) {
      if (name) {
        const store = await openProfiles(f.env);
        const p = store.get(name);
        const check = o.check === false ? undefined : await keyWorks(f, p.baseUrl, p.apiKey);
        return showProfile(f, name, p, store.current() === name, check);
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
        ...(o.check === false ? {} : await keyWorks(f, s.baseUrl, s.apiKey)),
      };
      await printObject(f, shown, Object.entries(shown), s.profile ?? '');
    },
  },
);
