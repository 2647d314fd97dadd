// esign profile use NAME | --none: the profile commands use when no flag or environment says otherwise.
import { CliError, EXIT } from '../../exitCodes.js';
import { openProfiles } from '../../profiles.js';
import { defineVerb } from '../../verb.js';

export const use = defineVerb('use [name]', 'Make a profile current (--none: back to the default local engine)', {
  flags: (c) => c.option('--none', 'no current profile'),
  examples: ['esign profile use prod', 'esign profile use --none'],
  async run(f, o, name) {
    if (!name === !o.none) throw new CliError('Give a profile name, or --none.', EXIT.USAGE);
    const store = await openProfiles(f.env);
    store.use(name || undefined);
    f.io.err.write(name ? `Using profile "${name}".\n` : 'No current profile: commands use the local engine.\n');
  },
});
