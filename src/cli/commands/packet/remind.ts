// esign packet remind ID: a reminder to the signer (at most once an hour).
import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import type { Action } from '../../run.js';
import { showPacket } from './show.js';

export interface RemindOptions {
  id: string;
}

export function register(packet: Command, action: Action): void {
  packet
    .command('remind <id>')
    .description('Send the signer a reminder (at most once an hour)')
    .action(action(async (f, _o: object, id: string) => run(f, { id })));
}

export async function run(f: Factory, o: RemindOptions): Promise<void> {
  await showPacket(f, await (await f.service()).remindPacket(o.id));
}
