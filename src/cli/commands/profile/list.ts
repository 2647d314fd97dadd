// esign profile list (the default verb): every profile, * marking the current one; keys redacted.
import { printList } from '../../output/print.js';
import { openProfilesIfAny, redactKey } from '../../profiles.js';
import { defineVerb } from '../../verb.js';
import { backend } from './shared/display.js';

export const list = defineVerb('list', 'List profiles (* marks the current one)', {
  commandOptions: { isDefault: true },
  examples: ['esign profile list', 'esign profile list --json'],
  async run(f) {
    const store = await openProfilesIfAny(f.env);
    const current = store?.current();
    const rows = Object.entries(store?.all() ?? {}).map(([name, p]) => ({ name, ...p }));
    await printList(
      f,
      rows,
      [
        { header: 'CURRENT', value: (r) => (r.name === current ? '*' : '') },
        { header: 'NAME', value: (r) => r.name },
        { header: 'BACKEND', value: backend },
        { header: 'BASE_URL', value: (r) => r.baseUrl },
        { header: 'KEY', value: (r) => redactKey(r.apiKey) },
        { header: 'LIVE', value: (r) => Boolean(r.live) },
        { header: 'DATA_DIR', value: (r) => r.dataDir },
      ],
      (r) => r.name,
      rows.map(({ apiKey, ...r }) => ({ ...r, current: r.name === current, api_key: redactKey(apiKey) })),
    );
  },
});
