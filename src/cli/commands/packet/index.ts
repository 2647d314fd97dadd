// esign packet: inspect and change one signer's packet.
import type { Command } from 'commander';
import type { Action } from '../../run.js';
import * as coe from './coe.js';
import * as embedUrl from './embedUrl.js';
import * as get from './get.js';
import * as remind from './remind.js';
import * as update from './update.js';

export function register(program: Command, action: Action): void {
  const packet = program.command('packet').description("Inspect and change one signer's packet");
  for (const verb of [get, update, remind, embedUrl, coe]) verb.register(packet, action);
}
