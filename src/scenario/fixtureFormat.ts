// What a scenario sets up that API v2 cannot make, or that a file wants before its first step: the
// account (features, requester, users, teams, brands), Document Templates imported from a PDF,
// Envelope Templates, Persons and webhooks. Each is a `setup` item and (the first three) a step
// action too. The account is checked here by the wire's own schema; the others by their members,
// since their values may be references (`template_id: ${nda.id}`) that only the run fills in: the
// backend judges those values, and its Error object names the field.
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../domain/enums.js';
import { AccountSetupRequest, EnvelopeTemplateSpec, FIXTURE_COUNTS, TemplateField } from '../domain/schemas.js';

const text = (description: string) => z.string().min(1).meta({ description });
const item = z.record(z.string(), z.unknown());

const template = z.strictObject({
  name: text("The template's name."),
  file: text('The PDF, relative to the scenario file (at most 25 MB).'),
  filename: z.string().min(1).meta({ description: "The download name (default: the file's name)." }).optional(),
  roles: z
    .array(z.strictObject({ key: z.string().min(1), label: z.string().optional() }))
    .min(1)
    .max(FIXTURE_COUNTS.roles)
    .meta({ description: 'The signer roles: {key, label}.' }),
  fields: z
    .array(TemplateField)
    .max(FIXTURE_COUNTS.fields)
    .meta({ description: 'Template fields: FieldRequest members with default_value, editor_roles, data_flow_tag.' })
    .optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  is_shared: z.boolean().optional(),
  teams: z.array(z.string()).meta({ description: 'Team ids (${account.teams[0].id}).' }).optional(),
  library: z.string().optional(),
});

const envelopeDocument = z.strictObject({
  key: z.string().min(1),
  name: z.string().optional(),
  order: z.int().min(0).optional(),
  template_id: z.string().min(1).meta({ description: 'A Document Template (${nda.id}).' }).optional(),
  assignments: z.union([z.record(z.string(), z.string()), z.array(item)]).optional(),
  file: z.string().min(1).meta({ description: 'A PDF relative to the scenario file.' }).optional(),
  file_path: z.string().min(1).optional(),
  fields: z.array(item).meta({ description: 'As in a BundleRequest; editors are signer keys.' }).optional(),
});

const envelopeTemplate = z.strictObject({
  name: text("The template's name."),
  description: z.string().optional(),
  is_shared: z.boolean().optional(),
  is_portal: z.boolean().optional(),
  allow_direct_signing: z.boolean().optional(),
  enabled: z.boolean().optional(),
  signers: EnvelopeTemplateSpec.shape.signers.max(FIXTURE_COUNTS.roles),
  documents: z.array(envelopeDocument).min(1).max(FIXTURE_COUNTS.documents),
  defaults: item.meta({ description: 'Bundle members the creation request may override.' }).optional(),
});

const person = z.strictObject({
  name: text("The Person's name."),
  metadata: item.optional(),
  channels: z.array(item).meta({ description: 'Each {email or phone, kind: em or mp}.' }).optional(),
});

const webhook = z.strictObject({
  name: text("The webhook's name."),
  url: text('Where it posts.'),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1),
  enabled: z.boolean().optional(),
  json: z.boolean().optional(),
  extra_headers: z.array(item).optional(),
});

/** What a setup item (and a step, for the first three) can make. */
export const FIXTURES = {
  account: AccountSetupRequest.meta({
    description:
      'The account: features switched on (true) or off (false), requester_name and _email, users, teams and brands added (a sandbox, or the local engine).',
  }),
  template: template.meta({ description: 'A Document Template imported from a PDF, with its roles and fields.' }),
  envelope_template: envelopeTemplate.meta({
    description: 'An Envelope Template of Document Templates (template_id) and PDFs (file) with fields.',
  }),
  person: person.meta({ description: 'A Person (createPerson).' }),
  webhook: webhook.meta({ description: "A webhook (createWebhook), beside the run's own receiver." }),
} as const;
export type Fixture = keyof typeof FIXTURES;
export const FIXTURE_NAMES = Object.keys(FIXTURES) as Fixture[];
/** Those that are step actions too: what API v2 cannot make (persons and webhooks are `call`s there). */
export const FIXTURE_STEPS = ['account', 'template', 'envelope_template'] as const satisfies readonly Fixture[];
