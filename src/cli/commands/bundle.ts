// esign bundle create|prepare|list|get|update|send|cancel|validate|events|files|data|tags
import { mkdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { AttachedFile, Bundle, BundleListQuery, FileObject } from '../../service/types.js';
import type { Factory } from '../factory.js';
import type { IO } from '../io.js';
import { CliError, EXIT } from '../exitCodes.js';
import { bundleStateWord, docStateWord, packetStateWord } from '../../service/states.js';
import { type Column, note, printList, printObject } from '../output.js';
import { type Action, collect, confirm, intArg, readJsonInput } from '../run.js';
import { type TemplateFlags, applyTemplateFlags, assignRolesInOrder } from './bundleTemplates.js';
import { register as registerWait } from './bundle/wait.js';
import { register as registerInspect } from './bundle/inspect.js';

export const BUNDLE_COLUMNS: Column<Bundle>[] = [
  { header: 'ID', value: (b) => b.id },
  { header: 'STATUS', value: (b) => b.status, kind: 'bundle-status' },
  { header: 'LABEL', value: (b) => b.label },
  { header: 'SIGNERS', value: (b) => b.packets.map((p) => p.name) },
  { header: 'TAGS', value: (b) => b.tags },
  { header: 'CREATED', value: (b) => b.created },
];

export async function showBundle(ctx: Factory, b: Bundle): Promise<void> {
  const word = (w: (code: string) => string, code: string) => (ctx.io.out.isTTY ? w(code) : code);
  const pairs: [string, unknown][] = [
    ['id', b.id], ['status', word(bundleStateWord, b.status)], ['label', b.label], ['created', b.created], ['sent', b.sent],
    ['completed_at', b.completed_at], ['expires', b.expires], ['is_test', b.is_test], ['in_order', b.in_order],
    ['doc_status', word(docStateWord, b.doc_status)], ['custom_key', b.custom_key], ['tags', b.tags],
    ['documents', b.documents.map((d) => `${d.key} (${d.name})`)],
    ...b.packets.map((p, i): [string, unknown] => [
      `signer ${i + 1}`,
      `${p.name} <${p.deliver_via === 'phone' ? p.phone : p.email ?? ''}> ${p.deliver_via} ${word(packetStateWord, p.status)} ${p.id}`,
    ]),
    ...b.errors.map((e, i): [string, unknown] => [`error ${i + 1}`, e.message]),
  ];
  await printObject(ctx, b, pairs, b.id);
}

/**
 * `Ada Lovelace <ada@example.com>`, `Ada <+15551234567>` (SMS delivery) or a bare address, with an
 * optional `KEY=` in front naming the signer's key (an Envelope Template's signer role, say).
 */
export function parseSigner(text: string, i: number): Record<string, unknown> {
  const keyed = /^\s*([A-Za-z0-9_.-]+)=(.+)$/.exec(text);
  if (keyed) text = keyed[2];
  const m = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(text);
  const name = m ? m[1] : '';
  const address = (m ? m[2] : text).trim();
  const key = keyed ? keyed[1] : `signer-${i + 1}`;
  if (/^\+?[0-9][0-9 ().-]{5,}$/.test(address)) return { key, name: name || address, phone: address, deliver_via: 'phone' };
  if (!address.includes('@')) throw new CliError(`--signer "${text}": expected "Name <email>" or "Name <+phone>".`, EXIT.USAGE);
  return { key, name: name || address.split('@')[0], email: address };
}

interface CreateOptions extends TemplateFlags {
  file?: string[];
  signer?: string[];
  spec?: string;
  label?: string;
  subject?: string;
  message?: string;
  customKey?: string;
  cc?: string[];
  draft?: boolean;
  inOrder?: boolean;
  test?: boolean;
  embed?: boolean;
  wait?: string | boolean;
  live?: boolean;
}

/** Turns flags and an optional JSON spec into a BundleRequest plus the attached files it refers to. */
export async function buildCreateRequest(io: IO, o: CreateOptions): Promise<{ body: Record<string, unknown>; files: AttachedFile[] }> {
  const body: Record<string, unknown> = o.spec ? await readJsonInput(io, o.spec, '--spec') : {};
  const baseDir = o.spec && o.spec !== '-' ? dirname(resolve(o.spec)) : process.cwd();
  const files: AttachedFile[] = [];
  const attach = async (path: string, flag: string) => {
    let data: Buffer;
    try {
      data = await readFile(path);
    } catch (e) {
      throw new CliError(`${flag} ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`, EXIT.USAGE);
    }
    files.push({ filename: basename(path), data });
    return files.length - 1;
  };
  // A spec may name local files with `file_path`; they travel as attached files (`file_index`).
  const documents = Array.isArray(body.documents) ? (body.documents as Record<string, unknown>[]) : [];
  for (const d of documents)
    if (typeof d?.file_path === 'string') {
      d.file_index = await attach(resolve(baseDir, d.file_path), 'file_path');
      delete d.file_path;
    }
  for (const path of o.file ?? []) documents.push({ key: `doc-${documents.length + 1}`, file_index: await attach(path, '--file') });
  if (o.signer?.length) {
    const packets = Array.isArray(body.packets) ? (body.packets as unknown[]) : [];
    o.signer.forEach((s) => packets.push({ ...parseSigner(s, packets.length), ...(o.embed ? { deliver_via: 'embed' } : {}) }));
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
  if (!body.packets && !body.documents && !body.envelope_template)
    throw new CliError('Nothing to send: give --file (or --template) and --signer, or a JSON spec with -f spec.json (-f - for stdin).', EXIT.USAGE);
  return { body, files };
}

/**
 * Polls until the Bundle leaves `pe` (launched or failed), with a spinner on a terminal. Failure
 * is exit 1 with the processing error; running out of time is exit 10.
 */
async function waitForLaunch(ctx: Factory, b: Bundle, seconds: number): Promise<Bundle> {
  const service = await ctx.service();
  const deadline = Date.now() + seconds * 1000;
  const spinner = ctx.io.err.isTTY && !ctx.options.json && b.status === 'pe'
    ? (await import('ora')).default({ text: `Processing documents of ${b.id}`, stream: process.stderr }).start()
    : undefined;
  try {
    while (b.status === 'pe') {
      if (Date.now() > deadline) throw new CliError(`Bundle ${b.id} is still pending after ${seconds} s.`, EXIT.TIMEOUT);
      await new Promise((r) => setTimeout(r, 200));
      b = await service.getBundle(b.id);
    }
  } finally {
    spinner?.stop();
  }
  return b;
}

/** Saves every file, with a counter on a terminal and one line per file (the path) on stdout. */
async function downloadAll(ctx: Factory, files: FileObject[], dir: string): Promise<void> {
  const { download } = await import('../download.js');
  await mkdir(dir, { recursive: true });
  const used = new Set<string>();
  const saved: { path: string; kind?: string; size: number; sha256: string }[] = [];
  for (const [i, f] of files.entries()) {
    const base = (f.name ?? `file-${i + 1}`).replace(/[/\\]/g, '_');
    let name = base;
    for (let n = 2; used.has(name); n++) name = base.replace(/(\.[^.]*)?$/, (ext: string) => `-${n}${ext}`);
    used.add(name);
    if (ctx.io.err.isTTY && !ctx.options.json) ctx.io.err.write(`\rDownloading ${i + 1}/${files.length}: ${name}\x1b[K`);
    saved.push({ ...(await download(ctx, f.file_url, join(dir, name), f.sha256)), kind: f.kind });
  }
  if (ctx.io.err.isTTY && !ctx.options.json) ctx.io.err.write('\r\x1b[K');
  await printList(ctx, saved, [
    { header: 'KIND', value: (s) => s.kind ?? '' }, { header: 'PATH', value: (s) => s.path },
    { header: 'BYTES', value: (s) => s.size }, { header: 'SHA256', value: (s) => s.sha256 },
  ], (s) => s.path);
  if (!ctx.options.json && !ctx.options.quiet) note(ctx, `Saved ${saved.length} file${saved.length === 1 ? '' : 's'} in ${dir}.`);
}

const waitSeconds = (w: string | boolean | undefined) => (w === undefined || w === false ? undefined : w === true ? 60 : intArg(w, '--wait', 0));

export function registerBundle(program: Command, action: Action): void {
  const bundle = program.command('bundle').description('Create, send, track and cancel signature Bundles');

  bundle
    .command('create')
    .description('Create a Bundle and send it (or save it as a draft)')
    .option('-f, --spec <file>', 'BundleRequest JSON (- for stdin); documents may use "file_path"')
    .option('--file <path>', 'a PDF to sign (repeatable)', collect)
    .option('--signer <"Name <email>">', 'a signer (repeatable); "Name <+phone>" for SMS; "KEY=Name <email>" sets its key', collect)
    .option('--label <text>', 'label of the Bundle')
    .option('--subject <text>', 'email subject')
    .option('--message <text>', 'email message')
    .option('--custom-key <key>', 'your own key to find the Bundle by')
    .option('--cc <email>', 'copy on completion (repeatable)', collect)
    .option('--draft', 'save as a draft instead of sending')
    .option('--in-order', 'signers sign one after the other')
    .option('--test', 'a test Bundle (delivered only to verified account addresses)')
    .option('--embed', 'signers from --signer sign through embedded URLs')
    .option('--wait [seconds]', 'wait while documents are processed (default 60 s)')
    .option('--live', 'on a remote server, really send a non-test Bundle')
    .option('--template <uuid>', 'add a document from this Document Template')
    .option('--assign <role=signer>', 'give a template role to a signer (key, number, email or name; repeatable)', collect)
    .option('--value <key=value>', 'a template field value, or an Envelope Template field value (repeatable)', collect)
    .option('--tag-value <name=value>', 'a Data Flow tag value (repeatable)', collect)
    .option('--envelope-template <id>', 'make the Bundle from an Envelope Template (signers take its roles in order, or --signer "ROLE=Name <email>")')
    .action(action(async (ctx, o: CreateOptions) => {
      const wait = waitSeconds(o.wait);
      const { body, files } = await buildCreateRequest(ctx.io, o);
      if (o.envelopeTemplate) await assignRolesInOrder(ctx, o.envelopeTemplate, o, body);
      if (body.status !== 'dr') await ctx.requireLive(body.is_test === true, o.live, 'create');
      const service = await ctx.service();
      let b = o.envelopeTemplate ? await service.createBundleFromEnvelopeTemplate(body) : await service.createBundle(body, files);
      if (wait !== undefined) b = await waitForLaunch(ctx, b, wait);
      await showBundle(ctx, b);
      if (wait !== undefined && b.status === 'fa')
        throw new CliError(`Bundle ${b.id} failed: ${b.errors.map((e) => e.message).join('; ')}`, EXIT.FAILURE);
    }));

  bundle
    .command('prepare')
    .description('A single-use URL where a person prepares and sends a Bundle in the browser')
    .option('--upload-pdf', 'let the person upload PDFs')
    .option('--template <uuid>', 'offer this Document Template (repeatable)', collect)
    .option('--folder <id>', 'offer the templates of this folder (repeatable)', collect)
    .option('--draft <slug>', 'resume this draft Bundle')
    .option('--search-signers', 'let the person pick signers from saved Persons')
    .option('--redirect <url>', 'where the browser goes when done')
    .action(action(async (ctx, o: { uploadPdf?: boolean; template?: string[]; folder?: string[]; draft?: string; searchSigners?: boolean; redirect?: string }) => {
      const body: Record<string, unknown> = {};
      if (o.uploadPdf) body.upload_pdf = true;
      if (o.template?.length) body.template_ids = o.template;
      if (o.folder?.length) body.folder_ids = o.folder;
      if (o.draft) body.draft_bundle = o.draft;
      if (o.searchSigners) body.allow_search_signers = true;
      if (o.redirect) body.redirect_url = o.redirect;
      if (!o.uploadPdf && !o.template?.length && !o.folder?.length)
        throw new CliError('Give at least one document source: --upload-pdf, --template ID or --folder ID.', EXIT.USAGE);
      const u = await (await ctx.service()).createBundlePreparationSession(body);
      await printObject(ctx, u, [['url', u.url], ['expires', u.expires]], u.url);
    }));

  bundle
    .command('list')
    .description('List Bundles, newest first')
    .option('--search <text>', 'slug, label, custom key, signer name, email or phone')
    .option('--status <code>', 'one status code (dr, pe, se, st, co, ca, ex, fa, de)')
    .option('--status-in <codes>', 'comma-separated status codes')
    .option('--tag <tag>', 'Bundles having the tag')
    .option('--tag-in <tags>', 'comma-separated; at least one matches')
    .option('--ordering <field>', 'created, sent or completed_at; prefix - to reverse', '-created')
    .option('--created-after <date>').option('--created-before <date>')
    .option('--sent-after <date>').option('--sent-before <date>')
    .option('--completed-after <date>').option('--completed-before <date>')
    .option('--template <uuid>', 'only Bundles made from that Document Template')
    .option('--page <n>', 'page number (from 1)')
    .option('--per-page <n>', 'page size (at most 100)')
    .option('--limit <n>', 'at most this many Bundles, across pages')
    .option('--all', 'every page')
    .action(action(async (ctx, o: Record<string, string | boolean | undefined>) => {
      const service = await ctx.service();
      const query: BundleListQuery = {
        search: o.search as string, status: o.status as string, status__in: o.statusIn as string, tag: o.tag as string,
        tag__in: o.tagIn as string, ordering: o.ordering as string, created_after: o.createdAfter as string,
        created_before: o.createdBefore as string, sent_after: o.sentAfter as string, sent_before: o.sentBefore as string,
        completed_after: o.completedAfter as string, completed_before: o.completedBefore as string, template: o.template as string,
      };
      const limit = o.limit !== undefined ? intArg(o.limit as string, '--limit', 1) : undefined;
      let page = o.page !== undefined ? intArg(o.page as string, '--page', 1) : 1;
      const perPage = o.perPage !== undefined ? intArg(o.perPage as string, '--per-page', 1) : limit !== undefined ? Math.min(limit, 100) : undefined;
      const items: Bundle[] = [];
      for (;;) {
        const p = await service.listBundles({ ...query, page, per_page: perPage });
        items.push(...p.items);
        const more = (o.all || (limit !== undefined && items.length < limit)) && p.page < p.total_pages;
        if (!more) break;
        page++;
      }
      await printList(ctx, limit !== undefined ? items.slice(0, limit) : items, BUNDLE_COLUMNS, (b) => b.id);
    }));

  bundle
    .command('get <slug>')
    .description('Show a Bundle')
    .option('--include <members>', 'comma-separated: data, events, files')
    .action(action(async (ctx, o: { include?: string }, slug: string) => {
      const b = await (await import('../bundleRef.js')).getBundleOrPacketsBundle(await ctx.service(), slug, o.include);
      if (o.include && !ctx.options.json && !ctx.options.quiet) note(ctx, '(included members are shown with --json)');
      await showBundle(ctx, b);
    }));

  bundle
    .command('update <slug>')
    .description('Change a draft or sent Bundle (expiry, reminders, cc, owner, team, brand)')
    .option('-f, --spec <file>', 'BundlePatchRequest JSON (- for stdin)')
    .option('--expires <date>', 'YYYY-MM-DD or an ISO date-time, in the future')
    .option('--cc <email>', 'replace the cc list (repeatable)', collect)
    .option('--cc-sender', 'copy the sender on completion').option('--no-cc-sender')
    .option('--send-reminders', 'send reminders').option('--no-send-reminders')
    .option('--reminder-offset <days>').option('--reminder-interval <days>').option('--reminder-expires <days>')
    .option('--owner <uuid|none>').option('--team <uuid|none>').option('--signing-brand <uuid|none>')
    .action(action(async (ctx, o: Record<string, unknown>, slug: string) => {
      const body: Record<string, unknown> = o.spec ? await readJsonInput(ctx.io, o.spec as string, '--spec') : {};
      const nullable = (v: unknown) => (v === 'none' ? null : v);
      if (o.expires !== undefined) body.expires = o.expires;
      if (o.cc !== undefined) body.cc_emails = o.cc;
      if (o.ccSender !== undefined) body.cc_sender = o.ccSender;
      if (o.sendReminders !== undefined) body.send_reminders = o.sendReminders;
      for (const [flag, key] of [['reminderOffset', 'reminder_offset'], ['reminderInterval', 'reminder_interval'], ['reminderExpires', 'reminder_expires']])
        if (o[flag] !== undefined) body[key] = intArg(o[flag] as string, `--${key.replace('_', '-')}`);
      if (o.owner !== undefined) body.owner = nullable(o.owner);
      if (o.team !== undefined) body.team = nullable(o.team);
      if (o.signingBrand !== undefined) body.signing_brand = nullable(o.signingBrand);
      if (!Object.keys(body).length) throw new CliError('Nothing to change: give at least one option (see esign bundle update --help).', EXIT.USAGE);
      await showBundle(ctx, await (await ctx.service()).updateBundle(slug, body));
    }));

  bundle
    .command('send <slug>')
    .description('Send a draft (or pending) Bundle')
    .option('--live', 'on a remote server, really send a non-test Bundle')
    .action(action(async (ctx, o: { live?: boolean }, slug: string) => {
      const service = await ctx.service();
      // Whether the draft is a test Bundle is asked only when it matters (a remote server, not live).
      await ctx.requireLive(async () => (await service.getBundle(slug)).is_test, o.live, 'send');
      await showBundle(ctx, await service.sendBundle(slug));
    }));

  bundle
    .command('cancel <slug>')
    .description('Cancel a Bundle that is not complete')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(async (ctx, o: { yes?: boolean }, slug: string) => {
      await confirm(ctx, `Cancel Bundle ${slug}? Signers can no longer sign it.`, o.yes);
      await showBundle(ctx, await (await ctx.service()).cancelBundle(slug));
    }));

  bundle
    .command('validate <slug>')
    .description('Check whether a draft can be sent')
    .action(action(async (ctx, _o, slug: string) => {
      const r = await (await ctx.service()).validateBundle(slug);
      await printObject(ctx, r, [['can_send', r.can_send], ['msg', r.msg], ['n_docs', r.n_docs]], String(r.can_send));
      if (!r.can_send) throw new CliError(`Bundle ${slug} cannot be sent: ${r.msg || 'no reason given'}`, EXIT.CANNOT_SEND);
    }));

  bundle
    .command('events <slug>')
    .description('The audit trail of a Bundle')
    .action(action(async (ctx, _o, slug: string) => {
      const service = await ctx.service();
      const [events, b] = await Promise.all([service.listBundleEvents(slug), service.getBundle(slug)]);
      const signer = (id?: string) => (id ? b.packets.find((p) => p.id === id)?.name ?? '' : '');
      await printList(ctx, events, [
        { header: 'TIME', value: (e) => e.timestamp },
        { header: 'KIND', value: (e) => e.kind },
        { header: 'DESCRIPTION', value: (e) => e.description },
        { header: 'PACKET', value: (e) => e.packet_id ?? '' },
        { header: 'SIGNER', value: (e) => signer(e.packet_id) },
      ], (e) => e.kind);
    }));

  bundle
    .command('files <slug>')
    .description('Links to the Bundle\'s files (expiring), or save them with --download')
    .option('--download <dir>', 'save every file into this directory (created if needed)')
    .action(action(async (ctx, o: { download?: string }, slug: string) => {
      const files = await (await ctx.service()).getBundleFiles(slug);
      if (o.download) return downloadAll(ctx, files, o.download);
      await printList(ctx, files, [
        { header: 'KIND', value: (f) => f.kind ?? '' },
        { header: 'NAME', value: (f) => f.name ?? '' },
        { header: 'SHA256', value: (f) => f.sha256 ?? '' },
        { header: 'EXPIRES', value: (f) => f.expires },
        { header: 'URL', value: (f) => f.file_url },
      ], (f) => f.file_url);
    }));

  bundle
    .command('data <slug>')
    .description('Field values of the Bundle')
    .action(action(async (ctx, _o, slug: string) => {
      const items = await (await ctx.service()).getBundleData(slug);
      await printList(ctx, items, [
        { header: 'DOC', value: (d) => d.doc_key },
        { header: 'FIELD', value: (d) => d.field_key },
        { header: 'KIND', value: (d) => d.kind },
        { header: 'LABEL', value: (d) => d.label },
        { header: 'VALUE', value: (d) => d.value },
        { header: 'FILLED_BY', value: (d) => d.filled_by },
      ], (d) => d.field_key);
    }));

  registerWait(bundle, action);
  registerInspect(bundle, action);

  const tags = bundle.command('tags').description('Add or remove tags');
  tags
    .command('add <slug> <tags...>')
    .description('Add tags (duplicates are ignored)')
    .action(action(async (ctx, _o, slug: string, list: string[]) => showBundle(ctx, await (await ctx.service()).addBundleTags(slug, list))));
  tags
    .command('remove <slug> <tags...>')
    .description('Remove tags (absent tags are ignored)')
    .action(action(async (ctx, _o, slug: string, list: string[]) => showBundle(ctx, await (await ctx.service()).removeBundleTags(slug, list))));
}
