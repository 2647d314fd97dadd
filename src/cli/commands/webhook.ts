// esign webhook list|create|get|update|delete|headers|events|event|deliveries|secret|trigger|resend|verify|listen
import type { Command } from 'commander';
import type { Webhook, WebhookEvent, WebhookExtraHeader } from '../../service/types.js';
import type { Factory } from '../factory.js';
import { CliError, EXIT } from '../exitCodes.js';
import { type Column, note, printDeleted, printList, printObject } from '../output.js';
import { type PageFlags, addPageOptions, fetchPages } from '../paging.js';
import { type Action, commaList, confirm, intArg } from '../run.js';

async function showWebhook(ctx: Factory, w: Webhook): Promise<void> {
  await printObject(ctx, w, [
    ['id', w.id], ['name', w.name], ['url', w.url], ['enabled', w.enabled], ['format', w.json ? 'json' : 'form'],
    ['event_types', w.event_types],
    ...[...w.extra_headers].sort((a, b) => a.order - b.order).map((h): [string, unknown] => [`header ${h.order}`, `${h.name}: ${h.value} (${h.id})`]),
  ], w.id);
}

async function showHeader(ctx: Factory, h: WebhookExtraHeader): Promise<void> {
  await printObject(ctx, h, [['id', h.id], ['webhook', h.webhook], ['name', h.name], ['value', h.value], ['order', h.order]], h.id);
}

/** One event with every delivery attempt. */
export async function showEvent(ctx: Factory, e: WebhookEvent): Promise<void> {
  await printObject(ctx, e, [
    ['pk', e.pk], ['webhook', e.webhook], ['event_type', e.event_type], ['created', e.created],
    ['status', e.status], ['success', e.success], ['payload', e.payload],
    ...e.deliveries.map((d, i): [string, unknown] => [`attempt ${i + 1}`, `${d.timestamp} ${d.status} ${d.message}`]),
  ], e.pk);
}

const EVENT_COLUMNS: Column<WebhookEvent>[] = [
  { header: 'ID', value: (e) => e.pk }, { header: 'EVENT_TYPE', value: (e) => e.event_type },
  { header: 'CREATED', value: (e) => e.created }, { header: 'STATUS', value: (e) => e.status },
  { header: 'SUCCESS', value: (e) => e.success }, { header: 'ATTEMPTS', value: (e) => e.deliveries.length },
];

/** --status, --after and --before of the event and delivery lists. */
function eventFilters(o: { bundle?: string; eventType?: string; status?: string; after?: string; before?: string }) {
  return {
    bundle: o.bundle,
    event_type: o.eventType,
    status: o.status !== undefined ? intArg(o.status, '--status') : undefined,
    after_date: o.after,
    before_date: o.before,
  };
}

type FilterFlags = PageFlags & { webhook?: string; bundle?: string; eventType?: string; status?: string; after?: string; before?: string };

function addEventFilters(cmd: Command): Command {
  return addPageOptions(cmd
    .option('--webhook <id>', 'of this webhook')
    .option('--bundle <slug>', 'for this Bundle (on a server without this filter, matched in each page\'s payloads)')
    .option('--event-type <type>', 'of this event type')
    .option('--status <code>', 'whose last HTTP status is this (0: no answer)')
    .option('--after <date>', 'created on or after this day (YYYY-MM-DD)')
    .option('--before <date>', 'created on or before this day (YYYY-MM-DD)'));
}

export function registerWebhook(program: Command, action: Action): void {
  const webhook = program.command('webhook').description('Webhooks: event subscriptions, their deliveries, and tools for receivers');

  addPageOptions(webhook.command('list').description('List webhooks')
    .option('--enabled', 'only enabled webhooks').option('--disabled', 'only disabled webhooks')
    .option('--event-type <type>', 'only webhooks subscribed to this event type'))
    .action(action(async (ctx, o: PageFlags & { enabled?: boolean; disabled?: boolean; eventType?: string }) => {
      if (o.enabled && o.disabled) throw new CliError('Give --enabled or --disabled, not both.', EXIT.USAGE);
      const service = await ctx.service();
      const enabled = o.enabled ? true : o.disabled ? false : undefined;
      const items = await fetchPages(ctx, (q) => service.listWebhooks({ ...q, enabled, event_type: o.eventType }), o);
      await printList(ctx, items, [
        { header: 'ID', value: (w) => w.id }, { header: 'NAME', value: (w) => w.name }, { header: 'URL', value: (w) => w.url },
        { header: 'ENABLED', value: (w) => w.enabled }, { header: 'FORMAT', value: (w) => (w.json ? 'json' : 'form') },
        { header: 'EVENTS', value: (w) => w.event_types },
      ], (w) => w.id);
    }));

  webhook.command('create').description('Subscribe a URL to event types')
    .requiredOption('--name <name>', 'what the webhook is for')
    .requiredOption('--url <url>', 'where deliveries are POSTed (http or https)')
    .requiredOption('--events <types>', 'comma-separated event types, e.g. bundle_sent,bundle_complete')
    .option('--disabled', 'create it disabled')
    .option('--form', 'deliver form-urlencoded bodies instead of JSON')
    .action(action(async (ctx, o: { name: string; url: string; events: string; disabled?: boolean; form?: boolean }) => {
      const body = { name: o.name, url: o.url, event_types: commaList(o.events), enabled: !o.disabled, json: !o.form };
      await showWebhook(ctx, await (await ctx.service()).createWebhook(body));
    }));

  webhook.command('get <id>').description('Show a webhook and its extra headers')
    .action(action(async (ctx, _o, id: string) => showWebhook(ctx, await (await ctx.service()).getWebhook(id))));

  webhook.command('update <id>').description('Change a webhook')
    .option('--name <name>').option('--url <url>')
    .option('--events <types>', 'comma-separated event types (replaces the subscriptions)')
    .option('--enable', 'enable it').option('--disable', 'disable it')
    .option('--form', 'deliver form-urlencoded bodies').option('--no-form', 'deliver JSON bodies')
    .action(action(async (ctx, o: { name?: string; url?: string; events?: string; enable?: boolean; disable?: boolean; form?: boolean }, id: string) => {
      if (o.enable && o.disable) throw new CliError('Give --enable or --disable, not both.', EXIT.USAGE);
      const body: Record<string, unknown> = {};
      if (o.name !== undefined) body.name = o.name;
      if (o.url !== undefined) body.url = o.url;
      if (o.events !== undefined) body.event_types = commaList(o.events);
      if (o.enable || o.disable) body.enabled = o.enable === true;
      if (o.form !== undefined) body.json = !o.form;
      if (!Object.keys(body).length) throw new CliError('Nothing to change: give at least one option (see esign webhook update --help).', EXIT.USAGE);
      await showWebhook(ctx, await (await ctx.service()).updateWebhook(id, body));
    }));

  webhook.command('delete <id>').description('Delete a webhook (its events and headers go with it)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(async (ctx, o: { yes?: boolean }, id: string) => {
      await confirm(ctx, `Delete webhook ${id}?`, o.yes);
      await (await ctx.service()).deleteWebhook(id);
      printDeleted(ctx, 'webhook', id);
    }));

  registerHeaders(webhook, action);

  addEventFilters(webhook.command('events').description('Webhook events (one per webhook and occurrence), newest first')
    .option('--success', 'only delivered events').option('--failed', 'only events not delivered (yet)'))
    .action(action(async (ctx, o: FilterFlags & { success?: boolean; failed?: boolean }) => {
      if (o.success && o.failed) throw new CliError('Give --success or --failed, not both.', EXIT.USAGE);
      const service = await ctx.service();
      const success = o.success ? true : o.failed ? false : undefined;
      const filters = { webhook: o.webhook, success, ...eventFilters(o) };
      const items = await fetchPages(ctx, (q) => service.listWebhookEvents({ ...q, ...filters }), o);
      await printList(ctx, items, EVENT_COLUMNS, (e) => e.pk);
    }));

  webhook.command('event <id>').description('One webhook event with its delivery attempts')
    .action(action(async (ctx, _o, id: string) => showEvent(ctx, await (await ctx.service()).getWebhookEvent(id))));

  addEventFilters(webhook.command('deliveries').description('Delivery attempts, newest first')
    .option('--event <id>', 'of this webhook event'))
    .action(action(async (ctx, o: FilterFlags & { event?: string }) => {
      const service = await ctx.service();
      const filters = { webhook: o.webhook, webhook_event: o.event, ...eventFilters(o) };
      const items = await fetchPages(ctx, (q) => service.listWebhookDeliveries({ ...q, ...filters }), o);
      await printList(ctx, items, [
        { header: 'ID', value: (d) => d.pk }, { header: 'EVENT', value: (d) => d.webhook_event },
        { header: 'EVENT_TYPE', value: (d) => d.event_type }, { header: 'TIME', value: (d) => d.created },
        { header: 'STATUS', value: (d) => d.status }, { header: 'SUCCESS', value: (d) => d.success },
      ], (d) => d.pk);
    }));

  webhook.command('secret').description('The secret deliveries are signed with (X-Blueink-Signature)')
    .option('--regenerate', 'make a new secret (receivers must be told)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(async (ctx, o: { regenerate?: boolean; yes?: boolean }) => {
      const service = await ctx.service();
      if (o.regenerate) await confirm(ctx, 'Regenerate the webhook secret? Receivers checking the old one will reject deliveries.', o.yes);
      const s = o.regenerate ? await service.regenerateWebhookSecret() : await service.getWebhookSecret();
      await printObject(ctx, s, [['secret', s.secret], ['create_date', s.create_date]], s.secret);
    }));

  webhook.command('trigger <eventType>').description('Send a test event to every enabled webhook subscribed to it (local engine, esign serve)')
    .option('--bundle <slug>', 'about this Bundle (else a placeholder "test")')
    .action(action(async (ctx, o: { bundle?: string }, eventType: string) => {
      const events = await (await ctx.service()).triggerWebhookEvent(eventType, o.bundle);
      if (!events.length && !ctx.options.json && !ctx.options.quiet) note(ctx, `No enabled webhook subscribes to ${eventType}.`);
      await printList(ctx, events, [
        { header: 'ID', value: (e) => e.pk }, { header: 'WEBHOOK', value: (e) => e.webhook },
        { header: 'EVENT_TYPE', value: (e) => e.event_type }, { header: 'STATUS', value: (e) => e.deliveries[0]?.status ?? '' },
        { header: 'SUCCESS', value: (e) => e.success },
        { header: 'MESSAGE', value: (e) => e.deliveries[0]?.message ?? 'not attempted yet' },
      ], (e) => e.pk);
    }));

  webhook.command('resend <eventId>').description('Deliver an event again now (local engine, esign serve)')
    .action(action(async (ctx, _o, id: string) => showEvent(ctx, await (await ctx.service()).resendWebhookEvent(id))));

  webhook.command('verify').description('Check a delivery\'s signature: exit 0 if good, 9 if it does not match, 11 if its timestamp is stale')
    .option('--secret <secret>', 'the webhook secret (env ESIGN_WEBHOOK_SECRET)')
    .option('--signature <sig>', 'the X-Blueink-Signature header (v0=HEX)')
    .option('--timestamp <ts>', 'the X-Blueink-Request-Timestamp header (UNIX seconds)')
    .option('--payload <text>', 'the raw body (else --payload-file, else stdin)')
    .option('--payload-file <file>', 'a file holding the raw body, byte for byte')
    .option('--tolerance <seconds>', 'largest accepted age of the timestamp', '300')
    .action(action(async (ctx, o) => (await import('./webhookVerify.js')).verifyCommand(ctx, o as never)));

  webhook.command('listen').description('Receive deliveries here: verify, print one line per event, optionally forward')
    .option('--port <n>', 'port to listen on (0: any free port)', '0')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--path <path>', 'path deliveries are POSTed to', '/')
    .option('--forward-to <url>', 'POST each verified delivery on to this URL, same body and headers')
    .option('--events <types>', 'comma-separated event types to show and forward (others are answered 200 and skipped)')
    .option('--secret <secret>', 'the webhook secret (env ESIGN_WEBHOOK_SECRET; else asked of the service)')
    .option('--tolerance <seconds>', 'largest accepted age of a delivery\'s timestamp', '300')
    .option('--count <n>', 'exit after this many deliveries')
    .action(action(async (ctx, o) => (await import('./webhookListen.js')).listenCommand(ctx, o as never)));
}

function registerHeaders(webhook: Command, action: Action): void {
  const headers = webhook.command('headers').description('Extra headers sent with a webhook\'s deliveries');

  addPageOptions(headers.command('list').description('List extra headers')
    .option('--webhook <id>', 'of this webhook'))
    .action(action(async (ctx, o: PageFlags & { webhook?: string }) => {
      const service = await ctx.service();
      const items = await fetchPages(ctx, (q) => service.listWebhookHeaders({ ...q, webhook: o.webhook }), o);
      await printList(ctx, items, [
        { header: 'ID', value: (h) => h.id }, { header: 'WEBHOOK', value: (h) => h.webhook }, { header: 'ORDER', value: (h) => h.order },
        { header: 'NAME', value: (h) => h.name }, { header: 'VALUE', value: (h) => h.value },
      ], (h) => h.id);
    }));

  headers.command('add <webhookId> <name> <value>').description('Add a header to a webhook\'s deliveries')
    .option('--order <n>', 'position among the webhook\'s headers (default 1)')
    .action(action(async (ctx, o: { order?: string }, webhookId: string, name: string, value: string) => {
      const body: Record<string, unknown> = { webhook: webhookId, name, value };
      if (o.order !== undefined) body.order = intArg(o.order, '--order');
      await showHeader(ctx, await (await ctx.service()).createWebhookHeader(body));
    }));

  headers.command('update <headerId>').description('Change an extra header')
    .option('--name <name>').option('--value <value>').option('--order <n>')
    .action(action(async (ctx, o: { name?: string; value?: string; order?: string }, id: string) => {
      const body: Record<string, unknown> = {};
      if (o.name !== undefined) body.name = o.name;
      if (o.value !== undefined) body.value = o.value;
      if (o.order !== undefined) body.order = intArg(o.order, '--order');
      if (!Object.keys(body).length) throw new CliError('Nothing to change: give --name, --value or --order.', EXIT.USAGE);
      await showHeader(ctx, await (await ctx.service()).updateWebhookHeader(id, body));
    }));

  headers.command('remove <headerId>').description('Remove an extra header')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(async (ctx, o: { yes?: boolean }, id: string) => {
      await confirm(ctx, `Remove webhook header ${id}?`, o.yes);
      await (await ctx.service()).deleteWebhookHeader(id);
      printDeleted(ctx, 'webhook header', id);
    }));
}
