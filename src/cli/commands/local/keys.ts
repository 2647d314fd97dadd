// esign local keys list|create|revoke: API keys for esign serve (stored hashed; a key is shown once).
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printList, printObject } from '../../output/print.js';
import type { Action } from '../../run.js';

export interface CreateOptions {
  name: string;
}

export function register(local: Command, action: Action): void {
  const keys = local.command('keys').description('API keys for esign serve (stored hashed; a key is shown once)');
  keys.command('list', { isDefault: true }).description('List keys').action(action(runList));
  keys
    .command('create')
    .description('Create a key and print it (only this once)')
    .option('--name <name>', 'what the key is for', 'default')
    .action(action(runCreate));
  keys
    .command('revoke <id>')
    .description('Revoke a key by id or prefix')
    .action(action(async (f, _o: object, id: string) => runRevoke(f, id)));
}

export async function runList(f: Factory): Promise<void> {
  const list = (await f.local()).keys.list();
  await printList(
    f,
    list,
    [
      { header: 'ID', value: (k) => k.id },
      { header: 'NAME', value: (k) => k.name },
      { header: 'PREFIX', value: (k) => k.prefix },
      { header: 'CREATED', value: (k) => k.created },
      { header: 'REVOKED', value: (k) => k.revoked_at ?? '' },
    ],
    (k) => k.id,
  );
}

export async function runCreate(f: Factory, o: CreateOptions): Promise<void> {
  const { record, key } = (await f.local()).keys.create(o.name);
  if (f.options.json) return printObject(f, { ...record, key }, []);
  if (!f.options.quiet) f.io.err.write(`Created API key ${record.id} (${record.name}). It is shown only now:\n`);
  f.io.out.write(`${key}\n`);
}

export async function runRevoke(f: Factory, id: string): Promise<void> {
  const k = (await f.local()).keys.revoke(id);
  await printObject(f, k, Object.entries(k), k.id);
}
