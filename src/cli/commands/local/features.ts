// esign local features list|enable|disable: account features (teams, reminders, signing_brands, ...).
import { fieldColumns, printList, printObject } from '../../output/print.js';
import { type Parent, defineVerb } from '../../verb.js';

export const list = defineVerb({
  command: (features: Parent) =>
    features.command('list', { isDefault: true }).description('Every feature and whether it is on'),
  examples: ['esign local features list', 'esign local features list --json'],
  async run(f) {
    const { ACCOUNT_FEATURES } = await import('../../../service/enums.js');
    const on = new Set((await f.local()).account.settings().features);
    const rows = ACCOUNT_FEATURES.map((name) => ({ feature: name, enabled: on.has(name) }));
    await printList(f, rows, fieldColumns(['feature', 'enabled']), (r) => r.feature);
  },
});

/** `enable` or `disable`: switches the features named on or off. */
const switchVerb = (on: boolean, examples: string[]) =>
  defineVerb({
    command: (features: Parent) =>
      features
        .command(on ? 'enable' : 'disable')
        .argument('<features...>')
        .description(on ? 'Switch on features' : 'Switch off features'),
    examples,
    async run(f, _o, names) {
      const list = (await f.local()).account.setFeatures(names, on);
      await printObject(f, { features: list }, [['features', list]]);
    },
  });

export const enable = switchVerb(true, [
  'esign local features enable reminders',
  'esign local features enable teams signing_brands',
]);
export const disable = switchVerb(false, [
  'esign local features disable early_files',
  'esign local features disable teams reminders',
]);
