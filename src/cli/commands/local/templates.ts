// esign local template import | local envelope-template create: authoring templates on the embedded
// engine (the hosted service makes them in its web app; API v2 has no create operation for them).
import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { CliError, EXIT } from '../../exitCodes.js';
import type { LocalBackend } from '../../factory.js';
import { collect, readInputFile, readJsonInput, unreadable } from '../../run.js';
import { defineVerb } from '../../verb.js';
import { showEnvelopeTemplate } from '../envelope-template/shared/display.js';
import { showTemplate } from '../template/shared/display.js';
import { metadataFlags } from '../template/shared/metadata.js';

type TemplateImport = Parameters<LocalBackend['importTemplate']>[0];

/** `KEY:LABEL` or `KEY`. */
function parseRole(text: string): { key: string; label?: string } {
  const i = text.indexOf(':');
  const key = (i < 0 ? text : text.slice(0, i)).trim();
  if (!key) throw new CliError(`--role expects KEY:LABEL, got "${text}".`, EXIT.USAGE);
  const label = i < 0 ? undefined : text.slice(i + 1).trim() || undefined;
  return label ? { key, label } : { key };
}

/** A fields file: a JSON array of template fields, or an object with a `fields` array. */
async function readFields(path: string): Promise<unknown[]> {
  const text = await readFile(path, 'utf8').catch((e: unknown) => {
    throw unreadable('--fields', path, e);
  });
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new CliError(`--fields ${path}: not valid JSON (${(e as Error).message}).`, EXIT.USAGE);
  }
  const list = Array.isArray(v) ? v : (v as { fields?: unknown })?.fields;
  if (!Array.isArray(list))
    throw new CliError(`--fields ${path}: expected a JSON array of fields (or {"fields": [...]}).`, EXIT.USAGE);
  return list;
}

export const importTemplate = defineVerb(
  'import <pdf>',
  'Make a Document Template from a PDF, its signer roles and fields',
  {
    flags: (c) =>
      c
        .requiredOption('--name <name>', 'name of the template')
        .option('--role <key:label>', 'a signer role (repeatable; at least one)', collect)
        .option('--fields <file>', 'JSON array of template fields (FieldRequest members, default_value, editor_roles)')
        .option('--metadata <key=value>', 'a metadata value (repeatable)', collect)
        .option('--shared', 'shared with the whole account')
        .option('--team <uuid>', 'assign to a team (repeatable)', collect)
        .option('--library <name>', 'folder the template sits in'),
    examples: [
      'esign local template import nda.pdf --name NDA --role signer:Signer',
      'esign local template import contract.pdf --name Contract --role client:Client --fields fields.json --metadata region=emea',
    ],
    async run(f, o, pdfPath) {
      if (!o.role?.length)
        throw new CliError('Give at least one signer role: --role KEY:LABEL (e.g. --role tenant:Tenant).', EXIT.USAGE);
      const input: TemplateImport = {
        name: o.name,
        pdf: await readInputFile(pdfPath, 'PDF'),
        filename: basename(pdfPath),
        roles: o.role.map(parseRole),
      };
      if (o.fields) input.fields = await readFields(o.fields);
      const metadata = metadataFlags(o.metadata);
      if (metadata) input.metadata = metadata;
      if (o.shared) input.is_shared = true;
      if (o.team?.length) input.teams = o.team;
      if (o.library) input.library = o.library;
      await showTemplate(f, await (await f.localEngine()).importTemplate(input));
    },
  },
);

export const createEnvelopeTemplate = defineVerb(
  'create <spec>',
  'Make an Envelope Template from a JSON spec (- for stdin); its files are read relative to the spec',
  {
    examples: [
      'esign local envelope-template create onboarding.json',
      'esign local envelope-template create onboarding.json --json',
    ],
    async run(f, _o, spec) {
      const body = await readJsonInput(f.io, spec, 'spec');
      const baseDir = spec === '-' ? process.cwd() : dirname(resolve(spec));
      await showEnvelopeTemplate(f, await (await f.localEngine()).createEnvelopeTemplate(body, baseDir));
    },
  },
);
