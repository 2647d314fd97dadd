// The template flags of esign bundle create: --template with --assign and --value (a TemplateRequest
// document), --envelope-template (a BundleTemplateRequest) and --tag-value.
import type { Factory } from '../../factory.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { keyValues } from '../../run.js';
import type { CreateOptions } from './create.js';

export type TemplateFlags = Pick<CreateOptions, 'template' | 'envelopeTemplate' | 'assign' | 'value' | 'tagValue'>;

type Packets = Record<string, unknown>[];

/** The packet a `--assign ROLE=SIGNER` names: by key, number (from 1), email, phone or name. */
function findSigner(packets: Packets, s: string): Record<string, unknown> | undefined {
  const n = /^\d+$/.test(s) ? Number(s) : 0;
  return (
    packets.find((p) => p.key === s) ??
    (n >= 1 ? packets[n - 1] : undefined) ??
    packets.find(
      (p) =>
        (typeof p.email === 'string' && p.email.toLowerCase() === s.toLowerCase()) || p.phone === s || p.name === s,
    )
  );
}

/** Template and envelope flags: field values, role assignments, Data Flow tag values. */
export function applyTemplateFlags(
  o: TemplateFlags,
  body: Record<string, unknown>,
  documents: Record<string, unknown>[],
): void {
  const packets = (Array.isArray(body.packets) ? body.packets : []) as Packets;
  const assign = keyValues(o.assign, '--assign');
  const values = keyValues(o.value, '--value').map(([key, initial_value]) => ({ key, initial_value }));
  if (!o.template && !o.envelopeTemplate && (assign.length || values.length))
    throw new CliError(
      `${assign.length ? '--assign' : '--value'} needs --template or --envelope-template.`,
      EXIT.USAGE,
    );
  if (o.template && o.envelopeTemplate)
    throw new CliError('Give --template or --envelope-template, not both.', EXIT.USAGE);
  if (o.template) {
    const doc: Record<string, unknown> = { template_id: o.template };
    if (assign.length)
      doc.assignments = assign.map(([role, s]) => ({ role, signer: (findSigner(packets, s)?.key as string) ?? s }));
    if (values.length) doc.field_values = values;
    documents.push(doc);
  }
  if (o.envelopeTemplate) {
    if (documents.length)
      throw new CliError(
        '--envelope-template brings its own documents: do not add --file, --template or spec documents.',
        EXIT.USAGE,
      );
    body.envelope_template = { template_id: o.envelopeTemplate, ...(values.length ? { field_values: values } : {}) };
    // Each signer's key must be one of the template's signer roles: --assign ROLE=SIGNER renames.
    for (const [role, s] of assign) {
      const p = findSigner(packets, s);
      if (!p)
        throw new CliError(
          `--assign ${role}=${s}: no such signer (name one by key, number, email, phone or name).`,
          EXIT.USAGE,
        );
      p.key = role;
    }
  }
  for (const [name, value] of keyValues(o.tagValue, '--tag-value'))
    body.tag_values = { ...(body.tag_values as object), [name]: value };
}

/**
 * Signers given only as --signer flags, without keys, take an Envelope Template's signer roles in
 * order; otherwise their keys must name the roles already.
 */
export async function assignRolesInOrder(
  ctx: Factory,
  envelopeTemplate: string,
  o: TemplateFlags,
  body: Record<string, unknown>,
): Promise<void> {
  const packets = body.packets as Packets | undefined;
  if (!packets?.length || o.assign?.length || !packets.every((p, i) => p.key === `signer-${i + 1}`)) return;
  const t = await (await ctx.service()).getEnvelopeTemplate(envelopeTemplate);
  const roles = [...t.signers].sort((a, b) => a.order - b.order);
  if (roles.length !== packets.length)
    throw new CliError(
      `Envelope Template ${t.id} has ${roles.length} signer role${roles.length === 1 ? '' : 's'} ` +
        `(${roles.map((r) => r.key).join(', ')}): ` +
        'give one --signer per role, in order, or name the role: --signer "ROLE=Name <email>".',
      EXIT.USAGE,
    );
  packets.forEach((p, i) => (p.key = roles[i].key));
}
