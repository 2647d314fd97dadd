// The shape every row's Bundle takes: --spec, --template or --envelope-template (exactly one).
import { dirname, resolve } from 'node:path';
import { CliError, EXIT } from '../exitCodes.js';
import type { Factory } from '../factory.js';
import { readJsonInput } from '../run.js';
import { checkSpecMembers } from '../commands/bundle/request.js';
import type { BatchSource } from '../../app/batch/send.js';

export interface SourceFlags {
  spec?: string;
  template?: string;
  envelopeTemplate?: string;
}

export async function loadSource(f: Factory, o: SourceFlags): Promise<BatchSource> {
  const given = [o.spec && '--spec', o.template && '--template', o.envelopeTemplate && '--envelope-template'].filter(
    Boolean,
  );
  if (given.length !== 1)
    throw new CliError(
      given.length
        ? `Give one of ${given.join(', ')}, not several.`
        : 'Give the shape of the Bundles: --spec SPEC.json, --template ID or --envelope-template ID.',
      EXIT.USAGE,
    );
  if (o.spec) {
    if (o.spec === '-')
      throw new CliError('--spec: give a file (stdin is not read twice for a resumable batch).', EXIT.USAGE);
    const spec = await readJsonInput(f.io, o.spec, '--spec');
    // A member no create can apply is refused before any row is read, never dropped.
    checkSpecMembers(spec, o.spec);
    return {
      source: { kind: 'spec', spec, baseDir: dirname(resolve(o.spec)) },
      descriptor: `spec:${JSON.stringify(spec)}`,
      ref: `spec:${resolve(o.spec)}`,
    };
  }
  const service = await f.service();
  if (o.template)
    return {
      source: { kind: 'template', template: await service.getTemplate(o.template) },
      descriptor: `template:${o.template}`,
      ref: `template:${o.template}`,
    };
  return {
    source: { kind: 'envelope', template: await service.getEnvelopeTemplate(o.envelopeTemplate!) },
    descriptor: `envelope-template:${o.envelopeTemplate}`,
    ref: `envelope-template:${o.envelopeTemplate}`,
  };
}
