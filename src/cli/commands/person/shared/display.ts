// How a Person is shown.
import type { Person } from '../../../../service/types.js';
import { type Out, fieldsOf, keyValueItems, printObject } from '../../../output/print.js';

export const emails = (p: Person) => p.channels.filter((c) => c.kind === 'em').map((c) => c.email ?? '');
export const phones = (p: Person) => p.channels.filter((c) => c.kind === 'mp').map((c) => c.phone ?? '');

export async function showPerson(o: Out, p: Person): Promise<void> {
  await printObject(
    o,
    p,
    [
      ...fieldsOf(p, ['id', 'name', 'is_user']),
      ['emails', emails(p)],
      ['phones', phones(p)],
      ['metadata', keyValueItems(p.metadata)],
    ],
    p.id,
  );
}
