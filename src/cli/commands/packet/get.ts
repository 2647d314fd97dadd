// esign packet get ID
import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import type { Action } from '../../run.js';
import { showPacket } from './show.js';

export interface GetOptions {
  id: string;
}

export function register(packet: Command, action: Action): void {
  packet
    .command('get <id>')
    .description('Show a packet')
    .action(action(async (f, _o: object, id: string) => run(f, { id })));
}

export async function run(f: Factory, o: GetOptions): Promise<void> {
  await showPacket(f, await (await f.service()).getPacket(o.id));
}
