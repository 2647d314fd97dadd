// esign local view|sign|decline|reassign: signer activity on the embedded engine, where no real person signs.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { LocalBackend } from '../../factory.js';
import { choiceOption } from '../../flags.js';
import { checkFlagMembers, givenFlags } from '../../flagMembers.js';
import { collect, keyValues as pairs, unreadable } from '../../run.js';
import { defineVerb } from '../../verb.js';
import { showPacket } from '../packet/shared/display.js';

type SignInput = Parameters<LocalBackend['signPacket']>[1];

export const view = defineVerb(
  'view <packetId>',
  'Act as the signer: open the documents (packet and Bundle become started)',
  {
    examples: ['esign local view Rw3pLk8sQe', 'esign local view Rw3pLk8sQe --json'],
    run: async (f, _o, id) => showPacket(f, await (await f.service()).viewPacket(id)),
  },
);

export const sign = defineVerb(
  'sign <packetId>',
  'Act as the signer: fill fields and sign (signature, initials, name and timestamp fill themselves)',
  {
    flags: (c) =>
      c
        .option('--value <key=value>', 'a field value; KEY may be DOC_KEY/FIELD_KEY (repeatable)', collect)
        .option('--attach <key=file>', 'a file for an attachment field (repeatable)', collect),
    examples: [
      'esign local sign Rw3pLk8sQe',
      'esign local sign Rw3pLk8sQe --value signer_name="Ada Lovelace" --attach id_scan=id.png',
    ],
    async run(f, o, id) {
      const input: SignInput = { values: Object.fromEntries(pairs(o.value, '--value')), attachments: {} };
      for (const [key, path] of pairs(o.attach, '--attach'))
        (input.attachments![key] ??= []).push({
          name: basename(path),
          data: await readFile(path).catch((e: unknown) => {
            throw unreadable('', `--attach ${key}=${path}`, e);
          }),
        });
      // On the embedded engine the last signature's signed files are produced before the command ends
      // (closing the engine finishes its work); esign serve produces them in its own time.
      await showPacket(f, await (await f.service()).signPacket(id, input));
    },
  },
);

/** The flags that set a member of the reassignment, checked by its schema before anything is sent. */
const REASSIGN_FLAGS = [
  ['name', 'name', '--name'],
  ['email', 'email', '--email'],
  ['phone', 'phone', '--phone'],
] as const;

export const reassign = defineVerb(
  'reassign <packetId>',
  'Act as the signer: hand your turn to another person (when the Bundle allows reassignment); prints the new packet',
  {
    flags: (c) =>
      c
        .requiredOption('--name <name>', 'the new signer')
        .option('--email <email>')
        .option('--phone <phone>')
        .addOption(choiceOption('--deliver-via <channel>', 'email or phone', ['email', 'phone']))
        .option('--reason <text>'),
    examples: [
      'esign local reassign Rw3pLk8sQe --name "Cy Newman" --email cy@example.com',
      'esign local reassign Rw3pLk8sQe --name Cy --phone +15551234567 --deliver-via phone --reason "on leave"',
    ],
    async run(f, o, id) {
      const { name, email, phone, reason } = o;
      const body = { name, email, phone, deliver_via: o.deliverVia, reason };
      await checkFlagMembers('ReassignRequest', body, givenFlags(o, REASSIGN_FLAGS));
      await showPacket(f, await (await f.service()).reassignPacket(id, body));
    },
  },
);

export const decline = defineVerb(
  'decline <packetId>',
  'Act as the signer: decline to sign (the Bundle becomes declined)',
  {
    flags: (c) => c.option('--reason <text>', 'why', ''),
    examples: ['esign local decline Rw3pLk8sQe', 'esign local decline Rw3pLk8sQe --reason "Wrong amount"'],
    run: async (f, o, id) => showPacket(f, await (await f.service()).declinePacket(id, o.reason)),
  },
);
