// esign bundle create: a Bundle from flags and/or a JSON spec, sent (or saved as a draft), its tags
// added right after, optionally waiting while its documents are processed.
import type { CreateRequest } from '../../../app/createCheck.js';
import type { ApiError } from '../../../service/errors.js';
import type { Bundle } from '../../../service/types.js';
import { durationArg, formatDuration } from '../../duration.js';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { SETTINGS_FLAGS, checkFlagMembers, givenFlags } from '../../flagMembers.js';
import { collect } from '../../run.js';
import { safeLine } from '../../../app/sanitize.js';
import { type OptionsOf, defineVerb } from '../../verb.js';
import { note, writeJson } from '../../output/print.js';
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

export const create = defineVerb('create', 'Create a Bundle and send it (or save it as a draft)', {
  flags: (c) =>
    c
      .option(
        '-f, --spec <file>',
        'BundleRequest JSON (- for stdin); documents may use "file_path"; "tags" are added after creation',
      )
      .option('--file <path>', 'a PDF to sign (repeatable)', collect)
      .option(
        '--signer <"Name <email>">',
        'a signer (repeatable); "Name <+phone>" for SMS; "KEY=Name <email>" sets its key',
        collect,
      )
      .option('--label <text>', 'label of the Bundle')
      .option('--subject <text>', 'email subject')
      .option('--message <text>', 'email message')
      .option('--custom-key <key>', 'your own key to find the Bundle by')
      .option('--cc <email>', 'copy on completion (repeatable)', collect)
      .option('--cc-sender', 'copy the sender on completion')
      .option('--tag <tag>', 'a tag (repeatable; added right after creation)', collect)
      .option('--expires <date>', 'YYYY-MM-DD or an ISO date-time, in the future')
      .option('--send-reminders', 'send reminders (Reminders feature)')
      .option('--reminder-offset <days>', 'days after sending before the first reminder (0-30)')
      .option('--reminder-interval <days>', 'days between reminders (0-30)')
      .option('--reminder-expires <days>', 'days after sending when reminders stop (0-30)')
      .option('--draft', 'save as a draft instead of sending')
      .option('--in-order', 'signers sign one after the other')
      .option('--test', 'a test Bundle (delivered only to verified account addresses)')
      .option('--embed', 'signers from --signer sign through embedded URLs')
      .option('--wait [duration]', 'wait while documents are processed: 90, 90s, 2m (default 60 s)')
      .option('--live', 'on a remote server, really send a non-test Bundle')
      .option('--dry-run', 'validate as a real create would (documents, features, signers, dates), creating nothing')
      .option('--template <uuid>', 'add a document from this Document Template')
      .option(
        '--assign <role=signer>',
        'give a template role to a signer (key, number, email or name; repeatable)',
        collect,
      )
      .option(
        '--value <key=value>',
        'a template field value, or an Envelope Template field value (repeatable)',
        collect,
      )
      .option('--tag-value <name=value>', 'a Data Flow tag value (repeatable)', collect)
      .option(
        '--envelope-template <id>',
        'make the Bundle from an Envelope Template (signers take its roles in order, or --signer "ROLE=Name <email>")',
      ),
  examples: [
    'esign bundle create --file contract.pdf --signer "Ada Lovelace <ada@example.com>" --label "Services agreement" --test',
    'esign bundle create -f fixtures/bundle-spec.json --draft',
    'esign bundle create --file nda.pdf --signer "Ada <ada@example.com>" --signer "Bob <+15551234567>" --in-order --live',
  ],
  async run(f, o) {
    const wait = waitMs(o.wait);
    const [{ buildCreateRequest }, { assignRolesInOrder }] = await Promise.all([
      import('./request.js'),
      import('./templateFlags.js'),
    ]);
    const { body, files, tags } = await buildCreateRequest(f.io, o);
    await checkFlagMembers('BundleRequest', body, givenFlags(o, CREATE_FLAGS));
    if (o.envelopeTemplate) await assignRolesInOrder(f, o.envelopeTemplate, o, body);
    if (o.dryRun) return dryRun(f, { endpoint: o.envelopeTemplate ? 'envelope' : 'bundle', body, files }, tags);
    if (body.status !== 'dr') await f.requireLive(body.is_test === true, o.live, 'create');
    // Tags are checked before anything is created: a bad one must not leave a sent Bundle behind.
    if (tags.length) {
      const S = await import('../../../service/schemas.js');
      S.parseOr400(S.TagsRequest, { tags });
    }
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
  },
});

/**
 * The one validation of a create (src/app/createCheck.ts, as `batch check` runs it), tags included:
 * each problem on stdout as `field F: why`, and what only the server can check named; exit 3 when invalid.
 */
async function dryRun(f: Factory, req: CreateRequest, tags: string[]): Promise<void> {
  const [{ CreateChecker }, S] = await Promise.all([
    import('../../../app/createCheck.js'),
    import('../../../service/schemas.js'),
  ]);
  const checker = new CreateChecker(await f.service(), { lookUpKeys: true });
  const { problems } = await checker.check(req);
  try {
    if (tags.length) S.parseOr400(S.TagsRequest, { tags });
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

/** What `bundle create`'s flags give, as its declaration types them. */
export type CreateOptions = OptionsOf<typeof create>;

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
  const [service, { waitForBundles }] = await Promise.all([f.service(), import('../../../app/wait/waiter.js')]);
  const spinner =
    f.io.err.isTTY && !f.options.json
      ? (await import('ora'))
          .default({ text: `Processing documents of ${safeLine(b.id)}`, stream: process.stderr })
          .start()
      : undefined;
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
