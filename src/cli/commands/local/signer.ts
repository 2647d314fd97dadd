// esign local view|sign|decline|reassign: signer activity on the embedded engine, where no real person signs.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import type { Factory, LocalBackend } from '../../factory.js';
import { type Action, collect, keyValues as pairs, unreadable } from '../../run.js';
import { showPacket } from '../packet/shared/display.js';
import { choiceOption } from '../../flags.js';

type SignInput = Parameters<LocalBackend['signPacket']>[1];

export interface SignOptions {
  id: string;
  value?: string[];
  attach?: string[];
}

export function register(local: Command, action: Action): void {
  local
    .command('view <packetId>')
    .description('Act as the signer: open the documents (packet and Bundle become started)')
    .action(action(async (f, _o: object, id: string) => showPacket(f, await (await f.local()).viewPacket(id))));

  local
    .command('sign <packetId>')
    .description('Act as the signer: fill fields and sign (signature, initials, name and timestamp fill themselves)')
    .option('--value <key=value>', 'a field value; KEY may be DOC_KEY/FIELD_KEY (repeatable)', collect)
    .option('--attach <key=file>', 'a file for an attachment field (repeatable)', collect)
    .action(action(async (f, o: Omit<SignOptions, 'id'>, id: string) => runSign(f, { ...o, id })));

  local
    .command('reassign <packetId>')
    .description(
      'Act as the signer: hand your turn to another person (when the Bundle allows reassignment); prints the new packet',
    )
    .requiredOption('--name <name>', 'the new signer')
    .option('--email <email>')
    .option('--phone <phone>')
    .addOption(choiceOption('--deliver-via <channel>', 'email or phone', ['email', 'phone']))
    .option('--reason <text>')
    .action(
      action(
        async (
          f,
          o: { name: string; email?: string; phone?: string; deliverVia?: string; reason?: string },
          id: string,
        ) =>
          showPacket(
            f,
            await (await f.service()).reassignPacket(id, {
              name: o.name,
              email: o.email,
              phone: o.phone,
              deliver_via: o.deliverVia,
              reason: o.reason,
            }),
          ),
      ),
    );

  local
    .command('decline <packetId>')
    .description('Act as the signer: decline to sign (the Bundle becomes declined)')
    .option('--reason <text>', 'why', '')
    .action(
      action(async (f, o: { reason: string }, id: string) =>
        showPacket(f, await (await f.local()).declinePacket(id, o.reason)),
      ),
    );
}

export async function runSign(f: Factory, o: SignOptions): Promise<void> {
  const input: SignInput = { values: Object.fromEntries(pairs(o.value, '--value')), attachments: {} };
  for (const [key, path] of pairs(o.attach, '--attach'))
    (input.attachments![key] ??= []).push({
      name: basename(path),
      data: await readFile(path).catch((e: unknown) => {
        throw unreadable('', `--attach ${key}=${path}`, e);
      }),
    });
  const engine = await f.local();
  const p = await engine.signPacket(o.id, input);
  // The last signature completes the Bundle: its signed files are produced before the command ends.
  await engine.settle();
  await showPacket(f, p);
}
