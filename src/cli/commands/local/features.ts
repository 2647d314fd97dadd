// esign local features list|enable|disable: account features (teams, reminders, signing_brands, ...).
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printList, printObject } from '../../output/print.js';
import type { Action } from '../../run.js';

export interface SwitchOptions {
  features: string[];
  on: boolean;
}

export function register(local: Command, action: Action): void {
  const features = local.command('features').description('Account features (teams, reminders, signing_brands, ...)');
  features
    .command('list', { isDefault: true })
    .description('Every feature and whether it is on')
    .action(action(runList));
  for (const [verb, on] of [
    ['enable', true],
    ['disable', false],
  ] as const)
    features
      .command(`${verb} <features...>`)
      .description(`${verb === 'enable' ? 'Switch on' : 'Switch off'} features`)
      .action(action(async (f, _o: object, names: string[]) => runSwitch(f, { features: names, on })));
}

export async function runList(f: Factory): Promise<void> {
  const { ACCOUNT_FEATURES } = await import('../../../service/enums.js');
  const on = new Set((await f.local()).account.settings().features);
  const rows = ACCOUNT_FEATURES.map((name) => ({ feature: name, enabled: on.has(name) }));
  await printList(
    f,
    rows,
    [
      { header: 'FEATURE', value: (r) => r.feature },
      { header: 'ENABLED', value: (r) => r.enabled },
    ],
    (r) => r.feature,
  );
}

export async function runSwitch(f: Factory, o: SwitchOptions): Promise<void> {
  const list = (await f.local()).account.setFeatures(o.features, o.on);
  await printObject(f, { features: list }, [['features', list]]);
}
