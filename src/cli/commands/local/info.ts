// esign local info: where the local data lives, and what it holds.
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printObject } from '../../output/print.js';
import type { Action } from '../../run.js';

export function register(local: Command, action: Action): void {
  local.command('info').description('Where the local data lives, and what it holds').action(action(run));
}

export async function run(f: Factory): Promise<void> {
  const info = (await f.local()).info();
  await printObject(f, info, Object.entries(info), info.data_dir);
}
