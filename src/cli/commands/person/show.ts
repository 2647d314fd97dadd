// How a Person is shown, and Person bodies from --email/--phone/--metadata flags.
import type { Person } from '../../../service/types.js';
import { type Out, keyValueItems, printObject } from '../../output/print.js';
import { keyValues } from '../../run.js';

export const emails = (p: Person) => p.channels.filter((c) => c.kind === 'em').map((c) => c.email ?? '');
export const phones = (p: Person) => p.channels.filter((c) => c.kind === 'mp').map((c) => c.phone ?? '');

export async function showPerson(o: Out, p: Person): Promise<void> {
  await printObject(
    o,
    p,
    [
      ['id', p.id],
      ['name', p.name],
      ['is_user', p.is_user],
      ['emails', emails(p)],
      ['phones', phones(p)],
      ['metadata', keyValueItems(p.metadata)],
    ],
    p.id,
  );
}

/** Contact channels from --email / --phone flags (new channels: no id). */
export const channels = (email: string[] = [], phone: string[] = []) => [
  ...email.map((e) => ({ kind: 'em', email: e })),
  ...phone.map((p) => ({ kind: 'mp', phone: p })),
];

export const metadata = (list: string[] | undefined) =>
  list?.length ? Object.fromEntries(keyValues(list, '--metadata')) : undefined;
