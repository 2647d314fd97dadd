// esign envelope-template list
import type { EnvelopeTemplate } from '../../../service/types.js';
import { fieldColumns } from '../../output/print.js';
import { listVerb } from '../../verb.js';
import { byOrder } from './shared/display.js';

export const list = listVerb('list', 'List enabled Envelope Templates, newest first', {
  examples: ['esign envelope-template list', 'esign envelope-template list --all --json'],
  pages: () => (s, q) => s.listEnvelopeTemplates(q),
  columns: [
    ...fieldColumns<EnvelopeTemplate>(['id', 'name']),
    { header: 'SIGNERS', value: (t) => byOrder(t.signers).map((s) => s.key) },
    { header: 'DOCUMENTS', value: (t) => byOrder(t.documents).map((d) => d.name) },
    { header: 'CREATED', value: (t) => t.created },
  ],
  id: (t) => t.id,
});
