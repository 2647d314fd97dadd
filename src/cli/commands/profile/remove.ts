// esign profile remove NAME (asks first, or --yes): the profile and its key.
import { openProfiles } from '../../profiles.js';
import { confirm } from '../../run.js';
import { defineVerb } from '../../verb.js';

export const remove = defineVerb('remove <name>', 'Remove a profile and its key', {
  flags: (c) => c.option('-y, --yes', 'do not ask for confirmation'),
  examples: ['esign profile remove staging', 'esign profile remove staging --yes'],
  async run(f, o, name) {
    const store = await openProfiles(f.env);
    store.get(name);
    await confirm(f, `Remove profile "${name}" and its key?`, o.yes);
    store.remove(name);
  },
});
