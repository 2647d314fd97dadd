// Every tool of `esign mcp --tools all` (one per operation, and the jobs), called at least once with
// good input and once with bad, by the SDK's client over stdio against a spawned `bin/esign.js mcp`
// on the local engine (run `npm run build` first). A bad call is a tool error with the API's status,
// code and field message, and changes nothing; every answer passes support.ts's checks.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolsOf } from '../../src/mcp/toolsets.js';
import { CONTRACT_B64, fixture, tempDir } from '../helpers.js';
import { type Connected, call, type Reply, type Seeded, seed, stdioClient } from './support.js';

const data = tempDir('esign-mcp-every-');
let client: Connected;
let seeded: Seeded;

beforeAll(async () => {
  seeded = await seed(data.dir);
  client = await stdioClient({ ESIGN_DATA_DIR: data.dir }, { set: 'all' });
});
afterAll(async () => {
  await client?.client.close();
  data.cleanup();
});

/** A refusal as words: the API's error as `esign` prints it (status code: message, one line per field), else the prose. */
function words(r: Reply): string {
  const e = r.data.error as {
    status?: number;
    code?: string;
    message?: string;
    errors?: { field: string; message: string }[];
  };
  if (e?.status)
    return `${e.status} ${e.code}: ${e.message}${(e.errors ?? []).map((x) => `\n- ${x.field}: ${x.message}`).join('')}`;
  return e?.message ? `${r.prose} ${e.message}` : r.prose;
}

const good = new Set<string>();
const bad = new Set<string>();
/** Calls that did not answer as expected, all reported at the end. */
const wrong: string[] = [];

/** A call that must succeed; its structured result. */
async function yes(name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const r = await call(client, name, args);
  if (r.isError) wrong.push(`${name} ${JSON.stringify(args).slice(0, 120)}: ${r.text}`);
  else good.add(name);
  return r.data;
}

/** A call that must be refused with a message matching `pattern`. */
async function no(name: string, args: Record<string, unknown>, pattern: RegExp): Promise<void> {
  const r = await call(client, name, args);
  if (!r.isError || !pattern.test(words(r))) wrong.push(`${name} should fail with ${pattern}: ${r.text.slice(0, 300)}`);
  else bad.add(name);
}

const signers = [{ key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' }];
const bundle = (label: string, over: Record<string, unknown> = {}) => ({
  label,
  packets: signers,
  documents: [{ key: 'contract', file_b64: CONTRACT_B64 }],
  ...over,
});
const NOSUCH = /^404 not_found: /;
const UUID0 = '00000000-0000-4000-8000-000000000000';

describe('every tool over stdio', () => {
  it("answers good input and refuses bad input with the API's words", async () => {
    // Bundles
    await yes('list_bundles', { status: 'se', per_page: 5 });
    await no('list_bundles', { status: 'zz' }, /^400 invalid: .*status/);
    const b = await yes('create_bundle', {
      body: bundle('Every tool', { allow_signer_reassign: true }),
      confirm: true,
    });
    const slug = b.id as string;
    const packet = (b.packets as { id: string }[])[0]!.id;
    await no(
      'create_bundle',
      { body: bundle('Bad', { packets: [{ key: 'x', name: 'X', email: 'not-an-email' }] }), confirm: true },
      /packets\[0\]\.email: Enter a valid email address\./,
    );
    await yes('create_bundle_from_envelope_template', {
      body: {
        envelope_template: { template_id: seeded.envelopeTemplateId },
        packets: [
          { key: 'client', name: 'Cleo Client', email: 'cleo@example.com', phone: '+15551234567' },
          { key: 'provider', name: 'Pat Provider', email: 'pat@example.com' },
        ],
      },
      confirm: true,
    });
    await no(
      'create_bundle_from_envelope_template',
      { body: { envelope_template: { template_id: 'T-nothere' }, packets: signers }, confirm: true },
      /^40[04] /,
    );
    await yes('create_bundle_preparation_session', { body: { upload_pdf: true } });
    await no(
      'create_bundle_preparation_session',
      { body: {} },
      /upload_pdf: At least one document input must be enabled/,
    );
    await yes('get_bundle', { id: slug, include: 'events' });
    await no('get_bundle', { id: 'nosuchbundle' }, NOSUCH);
    const draft = (await yes('create_bundle', { body: bundle('A draft', { status: 'dr' }) })).id as string;
    await yes('update_bundle', { id: draft, body: { expires: '2030-01-01' }, confirm: true });
    await no(
      'update_bundle',
      { id: draft, body: { colour: 'red' }, confirm: true },
      /colour: This field is not allowed here\./,
    );
    await yes('validate_bundle', { id: draft });
    await no('validate_bundle', { id: 'nosuchbundle' }, NOSUCH);
    await yes('list_bundle_events', { id: slug });
    await no('list_bundle_events', { id: 'nosuchbundle' }, NOSUCH);
    await yes('add_bundle_tags', { id: slug, tags: ['alpha'], confirm: true });
    await no('add_bundle_tags', { id: slug, tags: 'alpha', confirm: true }, /^400 invalid: .*tags/);
    await yes('remove_bundle_tags', { id: slug, tags: ['alpha'], confirm: true });
    await no('remove_bundle_tags', { id: slug, tags: [''], confirm: true }, /^400 invalid: .*tags\[0\]/);
    await yes('send_bundle', { id: draft, confirm: true });
    await no(
      'send_bundle',
      { id: draft, confirm: true },
      /^Not possible: Bundle \w+ is Sent: only a draft can be sent\./,
    );
    const drafted = (await yes('create_bundle', { body: bundle('To delete', { status: 'dr' }) })).id as string;
    await no('delete_bundle', { id: drafted }, /^Not done: this would delete Bundle \w+ \(Draft, 1 signer\)/);
    await yes('delete_bundle', { id: drafted, confirm: true });
    await no('delete_bundle', { id: drafted, confirm: true }, NOSUCH);
    await yes('expire_bundle', { id: draft, confirm: true });
    await no('expire_bundle', { id: 'nosuchbundle', confirm: true }, NOSUCH);

    // Packets and the signer's sandbox
    await yes('get_packet', { id: packet });
    await no('get_packet', { id: 'nosuch' }, NOSUCH);
    await yes('update_packet', { id: packet, body: { name: 'Ada King' }, confirm: true });
    await no(
      'update_packet',
      { id: packet, body: { deliver_via: 'embed' }, confirm: true },
      /deliver_via must be "email" or "phone"/,
    );
    await yes('remind_packet', { id: packet, confirm: true });
    await no('remind_packet', { id: 'nosuch', confirm: true }, NOSUCH);
    const embedded = await yes('create_bundle', {
      body: bundle('Embedded', {
        packets: [{ key: 'em', name: 'Em Bed', email: 'em@example.com', deliver_via: 'embed' }],
      }),
      confirm: true,
    });
    await yes('create_embed_url', { id: (embedded.packets as { id: string }[])[0]!.id });
    await no('create_embed_url', { id: 'nosuch' }, NOSUCH);
    await yes('view_packet', { id: packet, confirm: true });
    await no('view_packet', { id: 'nosuch', confirm: true }, NOSUCH);
    // Reassigning replaces a signer: destructive, so it needs confirm (issue 36).
    await no('reassign_packet', { id: packet, body: { name: 'Bea Deputy', email: 'bea@example.com' } }, /^Not done: /);
    const handed = await yes('reassign_packet', {
      id: packet,
      body: { name: 'Bea Deputy', email: 'bea@example.com' },
      confirm: true,
    });
    await no('reassign_packet', { id: handed.id, body: { email: 'x@example.com' }, confirm: true }, /name: /);
    await no('sign_packet', { id: handed.id, body: { values: 'no' }, confirm: true }, /^400 invalid: values/);
    await yes('sign_packet', { id: handed.id, body: {}, confirm: true });
    const toDecline = await yes('create_bundle', { body: bundle('Declined'), confirm: true });
    await no('decline_packet', { id: 'nosuch', reason: 'no', confirm: true }, NOSUCH);
    await yes('decline_packet', {
      id: (toDecline.packets as { id: string }[])[0]!.id,
      reason: 'Not today',
      confirm: true,
    });
    await yes('wait_for_bundles', { ids: [slug], until: 'docs-ready', timeout_seconds: 30 });
    await no('wait_for_bundles', { ids: [slug], until: 'someday' }, /until: /);
    await yes('get_bundle_files', { id: slug });
    await no('get_bundle_files', { id: 'nosuchbundle' }, NOSUCH);
    await yes('get_bundle_data', { id: slug });
    await no('get_bundle_data', { id: 'nosuchbundle' }, NOSUCH);
    await yes('get_packet_coe', { id: handed.id });
    await no('get_packet_coe', { id: 'nosuch' }, NOSUCH);
    await no('generate_interim_files', { id: 'nosuchbundle', confirm: true }, NOSUCH);
    const running = await yes('create_bundle', { body: bundle('Interim'), confirm: true });
    await yes('generate_interim_files', { id: running.id, confirm: true });
    await no('cancel_bundle', { id: 'nosuchbundle', confirm: true }, NOSUCH);
    await yes('cancel_bundle', { id: running.id, confirm: true });

    // Templates
    await yes('list_templates', { metadata: { region: 'emea' } });
    await no('list_templates', { per_page: 0 }, /^400 invalid: .*per_page/);
    await yes('get_template', { id: seeded.templateId });
    await no('get_template', { id: UUID0 }, NOSUCH);
    await yes('update_template', { id: seeded.templateId, body: { metadata: { region: 'emea' } }, confirm: true });
    await no(
      'update_template',
      { id: seeded.templateId, body: { name: 'x' }, confirm: true },
      /name: This field is not allowed here\./,
    );
    await yes('create_template_preparation_session', { body: { template_id: seeded.templateId } });
    await no(
      'create_template_preparation_session',
      { body: { template_id: 'nope' } },
      /template_id: Must be a valid UUID\./,
    );
    await yes('list_envelope_templates', { per_page: 10 });
    await no('list_envelope_templates', { page: 99 }, /^404 not_found: Page "99" was not found\./);
    await yes('get_envelope_template', { id: seeded.envelopeTemplateId });
    await no('get_envelope_template', { id: 'T-nothere' }, NOSUCH);
    await no('delete_template', { id: seeded.templateId }, /^Not done: this would delete a Document Template \(id /);
    await yes('get_template', { id: seeded.templateId });
    await yes('delete_template', { id: seeded.templateId, confirm: true });
    await no('delete_template', { id: seeded.templateId, confirm: true }, NOSUCH);

    // Persons
    const person = await yes('create_person', {
      body: { name: 'Pat Person', channels: [{ email: 'pat@example.com' }] },
    });
    await no('create_person', { body: { name: ' ' } }, /name: This field may not be blank\./);
    await yes('list_persons', { search: 'Pat' });
    await no('list_persons', { per_page: 'many' }, /^400 invalid: .*per_page/);
    await yes('get_person', { id: person.id });
    await no('get_person', { id: UUID0 }, NOSUCH);
    await yes('replace_person', {
      id: person.id,
      body: { name: 'Pat Person', channels: [{ email: 'pat2@example.com' }] },
      confirm: true,
    });
    await no('replace_person', { id: person.id, body: { channels: [] }, confirm: true }, /name: /);
    await yes('update_person', { id: person.id, body: { name: 'Pat P.' }, confirm: true });
    await no('update_person', { id: person.id, body: { channels: [{ kind: 'em' }] }, confirm: true }, /channels\[0\]/);
    await no('delete_person', { id: person.id }, /^Not done: this would delete a Person \(id /);
    await yes('delete_person', { id: person.id, confirm: true });
    await no('delete_person', { id: person.id, confirm: true }, NOSUCH);

    // Webhooks (deliveries go nowhere: the engine refuses addresses outside its policy)
    const hook = await yes('create_webhook', {
      body: { name: 'Hook', url: 'https://hooks.example.com/esign', event_types: ['bundle_sent'], enabled: false },
    });
    await no(
      'create_webhook',
      { body: { name: 'Hook', url: 'ftp://x', event_types: ['bundle_sent'] } },
      /url: Must be a full http or https URL\./,
    );
    await yes('list_webhooks', { enabled: false });
    await no('list_webhooks', { event_type: 'nope' }, /^400 invalid: .*event_type/);
    await yes('get_webhook', { id: hook.id });
    await no('get_webhook', { id: UUID0 }, NOSUCH);
    await yes('update_webhook', { id: hook.id, body: { name: 'Hook 2' }, confirm: true });
    await no('update_webhook', { id: hook.id, body: { event_types: [] }, confirm: true }, /event_types/);
    await yes('replace_webhook', {
      id: hook.id,
      body: { name: 'Hook 3', url: 'https://hooks.example.com/esign', event_types: ['bundle_sent'], enabled: false },
      confirm: true,
    });
    await no('replace_webhook', { id: hook.id, body: { name: 'Hook 3' }, confirm: true }, /url: /);
    const header = await yes('create_webhook_header', { body: { webhook: hook.id, name: 'X-Env', value: 'test' } });
    await no(
      'create_webhook_header',
      { body: { webhook: hook.id, name: 'Host', value: 'x' } },
      /"Host" is set by the delivery itself/,
    );
    await yes('list_webhook_headers', { webhook: hook.id });
    await no('list_webhook_headers', { per_page: -1 }, /^400 invalid: .*per_page/);
    await yes('get_webhook_header', { id: header.id });
    await no('get_webhook_header', { id: UUID0 }, NOSUCH);
    await yes('update_webhook_header', { id: header.id, body: { value: 'prod' }, confirm: true });
    await no(
      'update_webhook_header',
      { id: header.id, body: { value: ' padded ' }, confirm: true },
      /value: Must be an RFC 7230 header value/,
    );
    await yes('replace_webhook_header', {
      id: header.id,
      body: { webhook: hook.id, name: 'X-Env', value: 'stage' },
      confirm: true,
    });
    await no(
      'replace_webhook_header',
      { id: header.id, body: { webhook: hook.id, name: 'X-Env' }, confirm: true },
      /value: /,
    );
    await no('delete_webhook_header', { id: header.id }, /Not done/);
    await yes('delete_webhook_header', { id: header.id, confirm: true });
    await no('delete_webhook_header', { id: header.id, confirm: true }, NOSUCH);
    await yes('update_webhook', { id: hook.id, body: { enabled: true }, confirm: true });
    const fired = ((await yes('trigger_webhook_event', { event_type: 'bundle_sent', bundle: slug })).result ?? []) as {
      pk: string;
    }[];
    await no('trigger_webhook_event', { event_type: 'nope', bundle: slug }, /^400 invalid: .*event_type/);
    await yes('list_webhook_events', { webhook: hook.id });
    await no('list_webhook_events', { status: 'two hundred' }, /^400 invalid: .*status/);
    await yes('get_webhook_event', { id: fired[0]?.pk ?? UUID0 });
    await no('get_webhook_event', { id: UUID0 }, NOSUCH);
    await yes('resend_webhook_event', { id: fired[0]?.pk ?? UUID0, confirm: true });
    await yes('resend_webhook_events', { events: [fired[0]?.pk ?? UUID0], confirm: true });
    await no('resend_webhook_event', { id: UUID0, confirm: true }, NOSUCH);
    const deliveries = ((await yes('list_webhook_deliveries', { webhook: hook.id })).items ?? []) as { pk: string }[];
    await no('list_webhook_deliveries', { after_date: 'yesterday' }, /^400 invalid: .*after_date/);
    // The date filters are declared as the backends take them: a day.
    const declared = (
      client.tools.get('list_webhook_deliveries')!.inputSchema.properties as Record<string, { format: string }>
    ).after_date!;
    expect(declared.format).toBe('date');
    await yes('list_webhook_deliveries', { after_date: '2020-01-01', before_date: '2099-12-31' });
    await yes('get_webhook_delivery', { id: deliveries[0]?.pk ?? UUID0 });
    await no('get_webhook_delivery', { id: UUID0 }, NOSUCH);
    await yes('get_webhook_secret');
    await no('get_webhook_secret', { rotate: true }, /rotate: This field is not allowed here\./);
    await no('regenerate_webhook_secret', {}, /^Not done: this would regenerate the webhook signing secret\./);
    await yes('regenerate_webhook_secret', { confirm: true });
    await no('delete_webhook', { id: hook.id, confirm: 'yes' }, /confirm: /);
    await yes('delete_webhook', { id: hook.id, confirm: true });
    await no('delete_webhook', { id: hook.id, confirm: true }, NOSUCH);

    // The sandbox's clock and outbox
    await yes('describe_sandbox');
    await no('describe_sandbox', { verbose: true }, /verbose: This field is not allowed here\./);
    await yes('get_clock');
    await no('get_clock', { at: 'now' }, /at: This field is not allowed here\./);
    await no('advance_clock', { ms: 60_000 }, /Not done: this would act in the sandbox: move the clock forward/);
    await yes('advance_clock', { ms: 60_000, confirm: true });
    await no('advance_clock', { ms: -1, confirm: true }, /^400 invalid: ms: /);
    await no('reset_clock', {}, /Not done: this would act in the sandbox: the clock back to wall-clock time/);
    await yes('reset_clock', { confirm: true });
    await yes('list_outbox', { bundle: slug, kind: 'signing_request' });
    await no('list_outbox', { kind: 'postcard' }, /^400 invalid: kind: /);
    // What a create's check reads of the account
    await yes('account_facts');
    await no('account_facts', { verbose: true }, /verbose: This field is not allowed here\./);

    // Verification, the rate limit, and the jobs
    await yes('verify', { hash: 'a'.repeat(64) });
    await no('verify', { hash: 'xyz' }, /^400 invalid: hash: A SHA-256 hash written as 64 hexadecimal digits\./);
    await yes('get_rate_limit');
    await no('get_rate_limit', { key: 'x' }, /key: This field is not allowed here\./);
    await yes('bundle_story', { id: packet });
    await no('bundle_story', { id: 'nosuchbundle' }, NOSUCH);
    await yes('find_bundles', { states: ['sent'], page_size: 2 });
    await no('find_bundles', { states: ['someday'] }, /states\[0\]/);
    await yes('find_templates', { kind: 'envelope' });
    await no('find_templates', { kind: 'document', id: UUID0 }, NOSUCH);
    const made = await yes('send_for_signature', {
      signers: [{ name: 'Dee Draft', email: 'dee@example.com' }],
      documents: [{ path: fixture('contract.pdf') }],
      draft: true,
    });
    await no('send_for_signature', { signers: [], documents: [] }, /signers/);
    const draftId = (made.bundle as { id: string }).id;
    await yes('send_draft', { id: draftId, confirm: true });
    await no('send_draft', { id: draftId, confirm: true }, /^Not possible: Bundle \w+ is Sent/);
    await yes('remind_signers', { id: draftId, confirm: true });
    await no('remind_signers', { id: slug, confirm: true }, /reminders go only to sent or started Bundles/);
    const signer = (await yes('bundle_story', { id: draftId })).signers as { id: string }[];
    await yes('act_as_signer', { id: signer[0]!.id, action: 'view', confirm: true });
    await no('act_as_signer', { id: signer[0]!.id, action: 'dance', confirm: true }, /action/);
    await yes('webhook_health', {});
    await no('webhook_health', { since: 'yesterday' }, /since: Must be a date/);
    await no('resend_webhook_events', {}, /Give events or webhook/);
    await yes('verify_documents', { hashes: ['b'.repeat(64)] });
    await no('verify_documents', {}, /Nothing to verify: give paths or hashes\./);
    const csv = 'buyer.name,buyer.email\nAda,ada@example.com\nBob,not-an-email\n';
    const checked = await yes('send_batch', { csv, envelope_template: seeded.envelopeTemplateId, dry_run: true });
    expect(checked).toMatchObject({ ok: false });
    await no('send_batch', { csv }, /exactly one of spec, template, envelope_template\./);
    await yes('download_files', { id: slug, dir: join(data.dir, 'files') });
    await no('download_files', { id: 'nosuchbundle', dir: join(data.dir, 'files') }, NOSUCH);

    expect(wrong).toEqual([]);
    const names = toolsOf('all', true)
      .map((t) => t.name)
      .sort();
    expect([...good].sort(), 'each tool needs a good call here (a new operation: add one)').toEqual(names);
    expect([...bad].sort(), 'each tool needs a bad call here (a new operation: add one)').toEqual(names);
  }, 120_000);
});
