// The template flags of esign bundle create: --template with --assign and --value (a Document
// Template's document), --envelope-template and --tag-value, mapped into the request's intent. Which
// signer a role names, and roles in order, are the request builder's rules (app/bundleRequest.ts).
import { type BundleIntent, RoleCountMismatch, UnknownSigner } from '../../../app/bundleRequest.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { keyValues } from '../../run.js';
import type { CreateOptions } from './create.js';

type TemplateFlags = Pick<CreateOptions, 'template' | 'envelopeTemplate' | 'assign' | 'value' | 'tagValue'>;

/** Template and envelope flags: field values, role assignments, Data Flow tag values. */
export function applyTemplateFlags(o: TemplateFlags, intent: BundleIntent): void {
  const assign = keyValues(o.assign, '--assign').map(([role, signer]) => ({ role, signer }));
  const values = keyValues(o.value, '--value').map(([key, initial_value]) => ({ key, initial_value }));
  if (!o.template && !o.envelopeTemplate && (assign.length || values.length))
    throw new CliError(
      `${assign.length ? '--assign' : '--value'} needs --template or --envelope-template.`,
      EXIT.USAGE,
    );
  if (o.template && o.envelopeTemplate)
    throw new CliError('Give --template or --envelope-template, not both.', EXIT.USAGE);
  if (o.template)
    intent.documents.push({
      template_id: o.template,
      ...(assign.length ? { assignments: assign } : {}),
      ...(values.length ? { field_values: values } : {}),
    });
  if (o.envelopeTemplate) {
    if (intent.documents.length)
      throw new CliError(
        '--envelope-template brings its own documents: do not add --file, --template or spec documents.',
        EXIT.USAGE,
      );
    intent.envelope = {
      template_id: o.envelopeTemplate,
      ...(values.length ? { field_values: values } : {}),
      ...(assign.length ? { roles: assign } : {}),
    };
  }
  for (const [name, value] of keyValues(o.tagValue, '--tag-value'))
    intent.settings.tag_values = { ...(intent.settings.tag_values as object), [name]: value };
}

/** The builder's refusals of a role, in the words of these flags. */
export function templateFlagError(e: unknown): unknown {
  if (e instanceof UnknownSigner)
    return new CliError(
      `--assign ${e.role}=${e.handle}: no such signer (name one by key, number, email, phone or name).`,
      EXIT.USAGE,
    );
  if (e instanceof RoleCountMismatch) {
    const roles = `${e.roles.length} signer role${e.roles.length === 1 ? '' : 's'} (${e.roles.join(', ')})`;
    return new CliError(
      e.what === 'Envelope Template'
        ? `Envelope Template ${e.id} has ${roles}: give one --signer per role, in order, or name the role: --signer "ROLE=Name <email>".`
        : `Document Template ${e.id} has ${roles}: give one --signer per role, in order, or name each: --assign ROLE=SIGNER.`,
      EXIT.USAGE,
    );
  }
  return e;
}
