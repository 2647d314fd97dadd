// find_templates: the Document Templates (one document with roles and fields) and Envelope
// Templates (documents and signer roles) a Bundle can be sent from, or one of them whole.
import { z } from 'zod';
import type { DocumentTemplate, EnvelopeTemplate } from '../../service/types.js';
import { fitItems } from '../answer.js';
import { count, ours, say } from '../prose.js';
import { id, job } from './kit.js';

const Template = z.object({
  kind: z.enum(['document', 'envelope']),
  id: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  fields: z.array(z.string()),
});

const ofDocument = (t: DocumentTemplate) => ({
  kind: 'document' as const,
  id: t.id,
  name: t.name,
  roles: t.roles.map((r) => r.key),
  fields: t.fields.map((f) => String(f.key ?? '')).filter(Boolean),
});
const ofEnvelope = (t: EnvelopeTemplate) => ({
  kind: 'envelope' as const,
  id: t.id,
  name: t.name,
  roles: [...t.signers].sort((a, b) => a.order - b.order).map((s) => s.key),
  fields: [],
});

export const findTemplates = job({
  name: 'find_templates',
  title: 'Find templates',
  description:
    'Templates to send from: Document Templates (documents[].template_id of send_for_signature) and Envelope ' +
    'Templates (envelope_template), each with its signer roles in order and field keys. With id, that one whole.',
  uses: ['listTemplates', 'listEnvelopeTemplates', 'getTemplate', 'getEnvelopeTemplate'],
  input: z.strictObject({
    kind: z.enum(['document', 'envelope', 'both']).default('both'),
    id: id.optional(),
  }),
  output: z.object({
    templates: z.array(Template),
    detail: z.looseObject({ id: z.string() }).nullable(),
    left_out: z.int(),
  }),
  async run(a, { service }) {
    if (a.id) {
      const t =
        a.kind === 'envelope'
          ? await service.getEnvelopeTemplate(a.id)
          : await service.getTemplate(a.id).catch((e) => {
              if (a.kind === 'document') throw e;
              return service.getEnvelopeTemplate(a.id!);
            });
      const one = 'signers' in t ? ofEnvelope(t) : ofDocument(t);
      return { say: say`Template ${t.id} (${one.kind}).`, data: { templates: [one], detail: t, left_out: 0 } };
    }
    const [docs, envs] = await Promise.all([
      a.kind === 'envelope' ? undefined : service.listTemplates({ per_page: 100 }),
      a.kind === 'document' ? undefined : service.listEnvelopeTemplates({ per_page: 100 }),
    ]);
    const all = [...(docs?.items ?? []).map(ofDocument), ...(envs?.items ?? []).map(ofEnvelope)];
    const total = (docs?.total ?? 0) + (envs?.total ?? 0);
    return fitItems(all, (shown) => ({
      say: say`${count(total, 'template')}; ${shown.length} shown${ours(total > shown.length ? ': the others are left out (find one by id)' : '')}.`,
      data: { templates: shown, detail: null, left_out: total - shown.length },
    }));
  },
});
