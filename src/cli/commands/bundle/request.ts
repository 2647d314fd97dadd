// From what a user typed to a request's intent: `bundle create` flags and an optional JSON spec (whose
// unknown members are refused, never dropped); the request builder (app/bundleRequest.ts) makes the
// BundleRequest and reads the files it names.
import { basename, dirname, resolve } from 'node:path';
import { closest, distance } from 'fastest-levenshtein';
import { BundlePatchRequest, BundleRequest, BundleTemplateRequest } from '../../../domain/schemas.js';
import { PHONE_RULE, isPhoneNumber } from '../../../domain/phone.js';
import type { EsignService } from '../../../service/service.js';
import type { AttachedFile } from '../../../service/types.js';
import { type BundleIntent, type SignerIntent, buildBundleRequest, intentOfSpec } from '../../../app/bundleRequest.js';
import { applySettingsFlags } from './settingsFlags.js';
import { CliError, EXIT } from '../../exitCodes.js';
import type { IO } from '../../io.js';
import { readInputFile, readJsonInput } from '../../run.js';
import type { CreateOptions } from './create.js';
import { applyTemplateFlags, templateFlagError } from './templateFlags.js';

/**
 * What a spec may hold at its top level: the members of a BundleRequest (or, with an Envelope
 * Template, a BundleTemplateRequest), the members a client sets at creation that a PATCH also takes
 * (expires, reminders, cc_sender, ...), and `tags`, which the CLI adds right after creation.
 */
const SPEC_MEMBERS: readonly string[] = [
  ...new Set([
    ...Object.keys(BundleRequest.shape),
    ...Object.keys(BundleTemplateRequest.shape),
    ...Object.keys(BundlePatchRequest.shape),
    'tags',
  ]),
].sort();

/** Refuses a member the request cannot carry, naming it and the closest known one. */
export function checkSpecMembers(spec: Record<string, unknown>, path: string): void {
  for (const member of Object.keys(spec)) {
    if (SPEC_MEMBERS.includes(member)) continue;
    const near = closest(member, [...SPEC_MEMBERS]);
    const hint = distance(member, near) <= Math.max(2, Math.floor(member.length / 3)) ? ` (did you mean ${near}?)` : '';
    throw new CliError(
      `--spec ${path}: unknown member "${member}"${hint}. A spec holds: ${SPEC_MEMBERS.join(', ')}.`,
      EXIT.USAGE,
    );
  }
  if (spec.tags !== undefined && (!Array.isArray(spec.tags) || !spec.tags.every((t) => typeof t === 'string')))
    throw new CliError(`--spec ${path}: "tags" must be a list of strings.`, EXIT.USAGE);
}

/**
 * `Ada Lovelace <ada@example.com>`, `Ada <505 555 5555>` or `Ada <+44 20 7946 0958>` (SMS delivery) or a bare address, with an
 * optional `KEY=` in front naming the signer's key (an Envelope Template's signer role, say).
 */
function parseSigner(text: string): SignerIntent {
  const keyed = /^\s*([A-Za-z0-9_.-]+)=(.+)$/.exec(text);
  if (keyed) text = keyed[2];
  const m = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(text);
  const name = m ? m[1] : '';
  const address = (m ? m[2] : text).trim();
  const key = keyed ? { key: keyed[1] } : {};
  if (/^[+(0-9]/.test(address)) {
    if (!isPhoneNumber(address))
      throw new CliError(`--signer "${text}": ${address} is not a phone number. ${PHONE_RULE}`, EXIT.USAGE);
    return { ...key, name: name || address, phone: address };
  }
  if (!address.includes('@'))
    throw new CliError(`--signer "${text}": expected "Name <email>" or "Name <phone>".`, EXIT.USAGE);
  return { ...key, name: name || address.split('@')[0], email: address };
}

/** What to create: the request body, the attached files it refers to, and the tags to add afterwards. */
export interface CreateRequest {
  body: Record<string, unknown>;
  files: AttachedFile[];
  tags: string[];
}

type Templates = Pick<EsignService, 'getTemplate' | 'getEnvelopeTemplate'>;

/** Turns flags and an optional JSON spec into a BundleRequest plus the attached files it refers to. */
export async function buildCreateRequest(
  io: IO,
  o: CreateOptions,
  service: () => Promise<Templates>,
): Promise<CreateRequest> {
  const spec: Record<string, unknown> = o.spec ? await readJsonInput(io, o.spec, '--spec') : {};
  if (o.spec) checkSpecMembers(spec, o.spec);
  // Tags are not a creation member: they are added by the tags operation once the Bundle exists.
  const tags = [...((spec.tags as string[] | undefined) ?? []), ...(o.tag ?? [])];
  delete spec.tags;
  const baseDir = o.spec && o.spec !== '-' ? dirname(resolve(o.spec)) : process.cwd();
  const intent: BundleIntent = intentOfSpec(spec);
  for (const path of o.file ?? [])
    intent.documents.push({ file: { filename: basename(path), data: await readInputFile(path, '--file') } });
  if (o.signer?.length)
    intent.signers = [
      ...(intent.signers ?? []),
      ...o.signer.map((s) => ({ ...parseSigner(s), ...(o.embed ? { deliver_via: 'embed' } : {}) })),
    ];
  applyTemplateFlags(o, intent);
  const settings = intent.settings;
  if (o.label !== undefined) settings.label = o.label;
  if (o.subject !== undefined) settings.email_subject = o.subject;
  if (o.message !== undefined) settings.email_message = o.message;
  if (o.customKey !== undefined) settings.custom_key = o.customKey;
  if (o.cc?.length) settings.cc_emails = o.cc;
  if (o.draft) settings.status = 'dr';
  if (o.inOrder) settings.in_order = true;
  if (o.test) settings.is_test = true;
  if (o.expires !== undefined) settings.expires = o.expires;
  applySettingsFlags(o, settings);
  const hasPackets = intent.signers !== undefined || settings.packets !== undefined;
  if (!hasPackets && !intent.documents.length && spec.documents === undefined && intent.envelope === undefined)
    throw new CliError(
      'Nothing to send: give --file (or --template) and --signer, or a JSON spec with -f spec.json (-f - for stdin).',
      EXIT.USAGE,
    );
  if (!intent.envelope && !intent.signers?.length)
    throw new CliError('No signer: give --signer "Name <email>" (repeatable), or "packets" in the spec.', EXIT.USAGE);
  const templates = {
    getTemplate: async (id: string) => (await service()).getTemplate(id),
    getEnvelopeTemplate: async (id: string) => (await service()).getEnvelopeTemplate(id),
  };
  try {
    const { body, files } = await buildBundleRequest(intent, {
      service: templates,
      baseDir,
      read: (path) => readInputFile(path, 'file_path'),
    });
    return { body, files, tags };
  } catch (e) {
    throw templateFlagError(e);
  }
}
