// esign local features list|enable|disable: account features (teams, reminders, signing_brands, ...).
import { fieldColumns, printObject } from '../../output/print.js';
import type { Parent } from '../../verb.js';
import { engineList, switchVerbs } from './shared/verbs.js';
import { ACCOUNT_FEATURES } from '../../../domain/enums.js';

export const list = engineList<{ feature: string; enabled: boolean }>({
  description: 'Every feature and whether it is on',
  examples: ['esign local features list', 'esign local features list --json'],
  async rows(engine) {
    const on = new Set(engine.account.settings().features);
    return ACCOUNT_FEATURES.map((name) => ({ feature: name, enabled: on.has(name) }));
  },
  columns: fieldColumns(['feature', 'enabled']),
  id: (r) => r.feature,
});

export const [enable, disable] = switchVerbs({
  names: ['enable', 'disable'],
  descriptions: ['Switch on features', 'Switch off features'],
  examples: [
    ['esign local features enable reminders', 'esign local features enable teams signing_brands'],
    ['esign local features disable early_files', 'esign local features disable teams reminders'],
  ],
  command: (features: Parent, name: string) => features.command(name).argument('<features...>'),
  async run(f, on, _o, names) {
    const list = (await f.localEngine()).account.setFeatures(names, on);
    await printObject(f, { features: list }, [['features', list]]);
  },
});
