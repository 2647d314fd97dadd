// esign local view|sign|decline|reassign: signer activity on the embedded engine, where no real person signs.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { SignInput } from '../../local/signing.js';
import { CliError, EXIT } from '../exitCodes.js';
import { type Action, collect, keyValues as pairs } from '../run.js';
import { showPacket } from './packet.js';

export function registerSigner(local: Command, action: Action): void {
  local.command('view <packetId>').description('Act as the signer: open the documents (packet and Bundle become started)')
    .action(action(async (ctx, _o, id: string) => showPacket(ctx, await (await ctx.local()).viewPacket(id))));

  local.command('sign <packetId>')
    .description('Act as the signer: fill fields and sign (signature, initials, name and timestamp fill themselves)')
    .option('--value <key=value>', 'a field value; KEY may be DOC_KEY/FIELD_KEY (repeatable)', collect)
    .option('--attach <key=file>', 'a file for an attachment field (repeatable)', collect)
    .action(action(async (ctx, o: { value?: string[]; attach?: string[] }, id: string) => {
      const input: SignInput = { values: Object.fromEntries(pairs(o.value, '--value')), attachments: {} };
      for (const [key, path] of pairs(o.attach, '--attach')) {
        let data: Buffer;
        try {
          data = await readFile(path);
        } catch (e) {
          throw new CliError(`--attach ${key}=${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`, EXIT.USAGE);
        }
        (input.attachments![key] ??= []).push({ name: basename(path), data });
      }
      const engine = await ctx.local();
      const p = await engine.signPacket(id, input);
      // The last signature completes the Bundle: its signed files are produced before the command ends.
      await engine.settle();
      await showPacket(ctx, p);
    }));

  local.command('reassign <packetId>')
    .description('Act as the signer: hand your turn to another person (when the Bundle allows reassignment); prints the new packet')
    .requiredOption('--name <name>', 'the new signer').option('--email <email>').option('--phone <phone>')
    .option('--deliver-via <email|phone>').option('--reason <text>')
    .action(action(async (ctx, o: { name: string; email?: string; phone?: string; deliverVia?: string; reason?: string }, id: string) =>
      showPacket(ctx, await (await ctx.service()).reassignPacket(id, { name: o.name, email: o.email, phone: o.phone, deliver_via: o.deliverVia, reason: o.reason }))));

  local.command('decline <packetId>').description('Act as the signer: decline to sign (the Bundle becomes declined)')
    .option('--reason <text>', 'why', '')
    .action(action(async (ctx, o: { reason: string }, id: string) => showPacket(ctx, await (await ctx.local()).declinePacket(id, o.reason))));
}
