// esign person list
import type { Person } from '../../../service/types.js';
import { fieldColumns } from '../../output/print.js';
import { listVerb } from '../../verb.js';
import { emails, phones } from './shared/display.js';

export const list = listVerb('list', 'List Persons', {
  flags: (c) =>
    c
      .option('--search <text>', 'name, email or phone contains')
      .option('--email <email>', 'has this email address')
      .option('--phone <phone>', 'has this phone number'),
  examples: ['esign person list', 'esign person list --search ada --json'],
  pages: (o) => (s, q) => s.listPersons({ ...q, search: o.search, email: o.email, phone: o.phone }),
  columns: [
    ...fieldColumns<Person>(['id', 'name']),
    { header: 'EMAILS', value: emails },
    { header: 'PHONES', value: phones },
    { header: 'USER', value: (p) => p.is_user },
  ],
  id: (p) => p.id,
});
