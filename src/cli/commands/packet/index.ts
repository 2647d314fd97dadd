// esign packet: inspect and change one signer's packet.
import type { Command } from '@commander-js/extra-typings';
import type { Action } from '../../run.js';
import { registerVerbs } from '../../verb.js';
import { coe } from './coe.js';
import { embedUrl } from './embedUrl.js';
import { get } from './get.js';
import { remind } from './remind.js';
import { update } from './update.js';

export function register(program: Command, action: Action): void {
  const packet = program.command('packet').description("Inspect and change one signer's packet");
  registerVerbs(packet, action, [get, update, remind, embedUrl, coe]);
}
