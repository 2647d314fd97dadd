// From what a user typed to a BundleRequest: `bundle create` flags, an optional JSON spec (whose
// unknown members are refused, never dropped), and the local files they name.
import { basename, dirname, resolve } from 'node:path';
import { closest, distance } from 'fastest-levenshtein';
import { BundlePatchRequest, BundleRequest, BundleTemplateRequest } from '../../../service/schemas.js';
import { PHONE_RULE, isPhoneNumber } from '../../../service/phone.js';
import type { AttachedFile } from '../../../service/types.js';
import { attachSpecFiles } from '../../../app/attachFiles.js';
import { applySettingsFlags } from './settingsFlags.js';
import { CliError, EXIT } from '../../exitCodes.js';
import type { IO } from '../../io.js';
import { readInputFile, readJsonInput } from '../../run.js';
import type { CreateOptions } from './create.js';
import { applyTemplateFlags } from './templateFlags.js';

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
function parseSigner(text: string, i: number): Record<string, unknown> {
  const keyed = /^\s*([A-Za-z0-9_.-]+)=(.+)$/.exec(text);
  if (keyed) text = keyed[2];
  const m = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(text);
  const name = m ? m[1] : '';
  const address = (m ? m[2] : text).trim();
  const key = keyed ? keyed[1] : `signer-${i + 1}`;
  if (/^[+(0-9]/.test(address)) {
    if (!isPhoneNumber(address))
      throw new CliError(`--signer "${text}": ${address} is not a phone number. ${PHONE_RULE}`, EXIT.USAGE);
    return { key, name: name || address, phone: address, deliver_via: 'phone' };
  }
  if (!address.includes('@'))
    throw new CliError(`--signer "${text}": expected "Name <email>" or "Name <phone>".`, EXIT.USAGE);
  return { key, name: name || address.split('@')[0], email: address };
}

/** What to create: the request body, the attached files it refers to, and the tags to add afterwards. */
export interface CreateRequest {
  body: Record<string, unknown>;
  files: AttachedFile[];
  tags: string[];
}

/** Turns flags and an optional JSON spec into a BundleRequest plus the attached files it refers to. */
export async function buildCreateRequest(io: IO, o: CreateOptions): Promise<CreateRequest> {
  const body: Record<string, unknown> = o.spec ? await readJsonInput(io, o.spec, '--spec') : {};
  if (o.spec) checkSpecMembers(body, o.spec);
  // Tags are not a creation member: they are added by the tags operation once the Bundle exists.
  const tags = [...((body.tags as string[] | undefined) ?? []), ...(o.tag ?? [])];
  delete body.tags;
  const baseDir = o.spec && o.spec !== '-' ? dirname(resolve(o.spec)) : process.cwd();
  // A spec may name local files with `file_path`; they travel as attached files (`file_index`).
  const files = await attachSpecFiles(body, baseDir, (path) => readInputFile(path, 'file_path'));
  const attach = async (path: string, flag: string) => {
    files.push({ filename: basename(path), data: await readInputFile(path, flag) });
    return files.length - 1;
  };
  const documents = Array.isArray(body.documents) ? (body.documents as Record<string, unknown>[]) : [];
  for (const path of o.file ?? [])
    documents.push({ key: `doc-${documents.length + 1}`, file_index: await attach(path, '--file') });
  if (o.signer?.length) {
    const packets = Array.isArray(body.packets) ? (body.packets as unknown[]) : [];
    o.signer.forEach((s) =>
      packets.push({ ...parseSigner(s, packets.length), ...(o.embed ? { deliver_via: 'embed' } : {}) }),
    );
    body.packets = packets;
  }
  applyTemplateFlags(o, body, documents);
  if (documents.length) body.documents = documents;
  if (o.label !== undefined) body.label = o.label;
  if (o.subject !== undefined) body.email_subject = o.subject;
  if (o.message !== undefined) body.email_message = o.message;
  if (o.customKey !== undefined) body.custom_key = o.customKey;
  if (o.cc?.length) body.cc_emails = o.cc;
  if (o.draft) body.status = 'dr';
  if (o.inOrder) body.in_order = true;
  if (o.test) body.is_test = true;
  if (o.expires !== undefined) body.expires = o.expires;
  applySettingsFlags(o, body);
  if (!body.packets && !body.documents && !body.envelope_template)
    throw new CliError(
      'Nothing to send: give --file (or --template) and --signer, or a JSON spec with -f spec.json (-f - for stdin).',
      EXIT.USAGE,
    );
  if (!body.envelope_template && !(Array.isArray(body.packets) && body.packets.length))
    throw new CliError('No signer: give --signer "Name <email>" (repeatable), or "packets" in the spec.', EXIT.USAGE);
  return { body, files, tags };
}
