// The body of esign bundle create (declared in create.ts): build the request, check the tags, create,
// tag, and optionally wait while its documents are processed.
import { type CreateRequest, CreateChecker } from '../../../app/createCheck.js';
import { waitForBundles } from '../../../app/wait/waiter.js';
import type { ApiError } from '../../../domain/errors.js';
import { TagsRequest, parseOr400 } from '../../../domain/schemas.js';
import type { Bundle } from '../../../service/types.js';
import { safeLine } from '../../../app/sanitize.js';
import { durationArg, formatDuration } from '../../duration.js';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { note, writeJson } from '../../output/print.js';
import { SETTINGS_FLAGS, checkFlagMembers, givenFlags } from '../../flagMembers.js';
import type { CreateOptions } from './create.js';
import { buildCreateRequest } from './request.js';
import { showBundle } from './shared/display.js';

/** The flags that set a member of the request, checked by its schema before anything is sent. */
const CREATE_FLAGS = [
  ...SETTINGS_FLAGS,
  ['label', 'label', '--label'],
  ['subject', 'email_subject', '--subject'],
  ['message', 'email_message', '--message'],
  ['customKey', 'custom_key', '--custom-key'],
] as const;

/** `--wait` alone is a minute; `--wait 90`, `--wait 2m` (the one duration grammar). */
const waitMs = (w: string | boolean | undefined) =>
  w === undefined || w === false ? undefined : w === true ? 60_000 : durationArg(w, '--wait');

export async function run(f: Factory, o: CreateOptions): Promise<void> {
  const wait = waitMs(o.wait);
  const { body, files, tags } = await buildCreateRequest(f.io, o, () => f.service());
  await checkFlagMembers('BundleRequest', body, givenFlags(o, CREATE_FLAGS));
  if (o.dryRun) return dryRun(f, { endpoint: o.envelopeTemplate ? 'envelope' : 'bundle', body, files }, tags);
  if (body.status !== 'dr') await f.requireLive(body.is_test === true, o.live, 'create');
  // Tags are checked before anything is created: a bad one must not leave a sent Bundle behind.
  if (tags.length) parseOr400(TagsRequest, { tags });
  const service = await f.service();
  let b = o.envelopeTemplate
    ? await service.createBundleFromEnvelopeTemplate(body)
    : await service.createBundle(body, files);
  if (tags.length) {
    const tagged = await addTags(f, b, tags);
    if (typeof tagged === 'string') {
      // Created (and maybe sent): its id goes to stdout as on success, so a retry never creates it again.
      await showBundle(f, b);
      throw new CliError(tagged, EXIT.INCOMPLETE);
    }
    b = tagged;
  }
  if (wait !== undefined) b = await waitForLaunch(f, b, wait);
  await showBundle(f, b);
  if (wait !== undefined && b.status === 'fa')
    throw new CliError(`Bundle ${b.id} failed: ${b.errors.map((e) => e.message).join('; ')}`, EXIT.UNREACHABLE);
}

/**
 * The one validation of a create (src/app/createCheck.ts, as `batch check` runs it), tags included:
 * each problem on stdout as `field F: why`, and what only the server can check named; exit 3 when invalid.
 */
async function dryRun(f: Factory, req: CreateRequest, tags: string[]): Promise<void> {
  const checker = new CreateChecker(await f.service(), { lookUpKeys: true });
  const { problems } = await checker.check(req);
  try {
    if (tags.length) parseOr400(TagsRequest, { tags });
  } catch (e) {
    problems.push(
      ...(e as ApiError).errors.map((x) => ({ field: `tags${x.field.replace(/^tags/, '')}`, message: x.message })),
    );
  }
  const result = {
    ok: !problems.length,
    problems,
    checked_at_send: checker.atSend(),
    after_create: checker.afterCreate(),
  };
  if (f.options.json) writeJson(f, result);
  else {
    for (const p of problems) f.io.out.write(`${safeLine(`field ${p.field}: ${p.message}`)}\n`);
    if (!f.options.quiet) {
      if (result.ok) note(f, 'Valid: the create would be accepted (nothing was created).');
      if (result.checked_at_send.length)
        note(f, `Checked by the server at send: ${result.checked_at_send.join('; ')}.`);
      if (result.after_create.length)
        note(f, `After the create: ${result.after_create.join('; ')} (a failure fails the Bundle).`);
    }
  }
  if (problems.length)
    throw new CliError(
      `The create would be refused: ${problems.length} problem${problems.length === 1 ? '' : 's'}.`,
      EXIT.INVALID,
    );
}

/** The Bundle exists by now: a failure is returned as the message to give (exit INCOMPLETE), never thrown. */
async function addTags(f: Factory, b: Bundle, tags: string[]): Promise<Bundle | string> {
  try {
    return await (await f.service()).addBundleTags(b.id, tags);
  } catch (e) {
    return (
      `Bundle ${b.id} was created${b.status === 'dr' ? ' as a draft' : ''}, ` +
      `but its tags were not added: ${(e as Error).message}. ` +
      `Add them with: esign bundle tags add ${b.id} ${tags.map(shellWord).join(' ')}`
    );
  }
}

const shellWord = (t: string) => (/^[A-Za-z0-9_.,:@%+=/-]+$/.test(t) ? t : `'${t.replace(/'/g, `'\\''`)}'`);

/**
 * Waits, with `bundle wait`'s waiter, until the Bundle's documents are processed (it leaves `pe`:
 * launched, or failed), with a spinner on a terminal. Failure is exit 13 (the wait can no longer
 * succeed) with the processing error; running out of time is exit 10.
 */
async function waitForLaunch(f: Factory, b: Bundle, timeoutMs: number): Promise<Bundle> {
  if (b.status !== 'pe') return b;
  const service = await f.service();
  const spinner = f.options.json ? undefined : await f.io.spinner(`Processing documents of ${safeLine(b.id)}`);
  try {
    const r = await waitForBundles(service, [b.id], {
      target: 'processed',
      timeoutMs,
      firstStepMs: f.timing.waitFirstStepMs,
    });
    if (r.outcome === 'timeout')
      throw new CliError(`Bundle ${b.id} is still pending after ${formatDuration(timeoutMs)}.`, EXIT.TIMEOUT);
    return r.bundles[0];
  } finally {
    spinner?.stop();
  }
}
