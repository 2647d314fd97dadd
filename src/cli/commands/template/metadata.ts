// esign template metadata set|unset|clear: a template's metadata (its only writable member).
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { type Action, confirm } from '../../run.js';
import { metadataFlags, showTemplate } from './show.js';

export interface SetOptions {
  id: string;
  pairs: string[];
}
export interface UnsetOptions {
  id: string;
  keys: string[];
}
export interface ClearOptions {
  id: string;
  yes?: boolean;
}

export function register(template: Command, action: Action): void {
  const metadata = template.command('metadata').description("Change a template's metadata (the only writable member)");
  metadata
    .command('set <id> <pairs...>')
    .description('Set or change keys: KEY=VALUE ... (other keys are kept)')
    .action(action(async (f, _o: object, id: string, pairs: string[]) => runSet(f, { id, pairs })));
  metadata
    .command('unset <id> <keys...>')
    .description('Remove keys (absent keys are ignored)')
    .action(action(async (f, _o: object, id: string, keys: string[]) => runUnset(f, { id, keys })));
  metadata
    .command('clear <id>')
    .description('Remove every key')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(async (f, o: Omit<ClearOptions, 'id'>, id: string) => runClear(f, { ...o, id })));
}

export async function runSet(f: Factory, o: SetOptions): Promise<void> {
  const values = metadataFlags(o.pairs, 'metadata set')!;
  await showTemplate(f, await (await f.service()).updateTemplate(o.id, { metadata: values }));
}

export async function runUnset(f: Factory, o: UnsetOptions): Promise<void> {
  const body = { metadata: Object.fromEntries(o.keys.map((k) => [k, ''])) };
  await showTemplate(f, await (await f.service()).updateTemplate(o.id, body));
}

export async function runClear(f: Factory, o: ClearOptions): Promise<void> {
  await confirm(f, `Remove all metadata of template ${o.id}?`, o.yes);
  await showTemplate(f, await (await f.service()).updateTemplate(o.id, { metadata: '' }));
}
