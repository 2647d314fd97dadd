// esign local ...: the embedded engine's own account, outbox, clock and template authoring (not part of API v2).
import type { Command } from 'commander';
import { CliError } from '../exitCodes.js';
import { printList, printObject } from '../output.js';
import type { Action } from '../run.js';
import { registerLocalTemplates } from './localTemplates.js';
import { registerSigner } from './signer.js';

export function registerLocal(program: Command, action: Action): void {
  const local = program.command('local').description('The embedded local engine: account, features, users, outbox, clock');

  registerSigner(local, action);
  registerLocalTemplates(local, action);

  local.command('info').description('Where the local data lives, and what it holds')
    .action(action(async (ctx) => {
      const e = await ctx.local();
      const count = (t: string) => (e.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
      const info = { data_dir: e.dataDir, database: e.db.name, bundles: count('bundles'), packets: count('packets'), documents: count('blobs'), outbox: count('outbox'), clock: e.clock.now() };
      await printObject(info, Object.entries(info), ctx.options, e.dataDir);
    }));

  const account = local.command('account').description('Requester defaults and links of the local account');
  account.command('show', { isDefault: true }).description('Show the account')
    .action(action(async (ctx) => {
      const s = (await ctx.local()).account.settings();
      await printObject(s, Object.entries(s), ctx.options, s.name);
    }));
  account.command('set').description('Change account settings')
    .option('--name <name>').option('--requester-name <name>').option('--requester-email <email>')
    .option('--public-url <url>', 'base URL of signing and file links (where esign serve listens)')
    .option('--allow-private-urls', 'let esign serve reach private and loopback addresses (file_url downloads, webhook deliveries)')
    .option('--no-allow-private-urls')
    .action(action(async (ctx, o: { name?: string; requesterName?: string; requesterEmail?: string; publicUrl?: string; allowPrivateUrls?: boolean }) => {
      const s = (await ctx.local()).account.update({
        name: o.name, requester_name: o.requesterName, requester_email: o.requesterEmail, public_url: o.publicUrl, allow_private_urls: o.allowPrivateUrls,
      });
      await printObject(s, Object.entries(s), ctx.options, s.name);
    }));

  const features = local.command('features').description('Account features (teams, reminders, signing_brands, ...)');
  features.command('list', { isDefault: true }).description('Every feature and whether it is on')
    .action(action(async (ctx) => {
      const { ACCOUNT_FEATURES } = await import('../../service/enums.js');
      const on = new Set((await ctx.local()).account.settings().features);
      const rows = ACCOUNT_FEATURES.map((f) => ({ feature: f, enabled: on.has(f) }));
      await printList(rows, [{ header: 'FEATURE', value: (r) => r.feature }, { header: 'ENABLED', value: (r) => r.enabled }], ctx.options, (r) => r.feature);
    }));
  for (const [verb, on] of [['enable', true], ['disable', false]] as const)
    features.command(`${verb} <features...>`).description(`${verb === 'enable' ? 'Switch on' : 'Switch off'} features`)
      .action(action(async (ctx, _o, names: string[]) => {
        const list = (await ctx.local()).account.setFeatures(names, on);
        await printObject({ features: list }, [['features', list]], ctx.options);
      }));

  const users = local.command('users').description('Users of the account (test Bundles go only to their verified addresses)');
  users.command('list', { isDefault: true }).description('List users')
    .action(action(async (ctx) => {
      const list = (await ctx.local()).account.users();
      await printList(list, [
        { header: 'ID', value: (u) => u.id }, { header: 'EMAIL', value: (u) => u.email }, { header: 'NAME', value: (u) => u.name },
        { header: 'VERIFIED', value: (u) => u.verified }, { header: 'ADMIN', value: (u) => u.is_admin },
      ], ctx.options, (u) => u.id);
    }));
  users.command('add <email>').description('Add a user (verified unless --unverified)')
    .option('--name <name>').option('--admin').option('--unverified')
    .action(action(async (ctx, o: { name?: string; admin?: boolean; unverified?: boolean }, email: string) => {
      const u = (await ctx.local()).account.addUser({ email, name: o.name, admin: o.admin, verified: !o.unverified });
      await printObject(u, Object.entries(u), ctx.options, u.id);
    }));
  for (const [verb, verified] of [['verify', true], ['unverify', false]] as const)
    users.command(`${verb} <email>`).description(verified ? 'Mark the address verified' : 'Mark the address unverified')
      .action(action(async (ctx, _o, email: string) => {
        const u = (await ctx.local()).account.setUserVerified(email, verified);
        await printObject(u, Object.entries(u), ctx.options, u.id);
      }));
  users.command('remove <email>').description('Remove a user')
    .action(action(async (ctx, _o, email: string) => (await ctx.local()).account.removeUser(email)));

  const teams = local.command('teams').description('Teams of the account');
  teams.command('list', { isDefault: true }).action(action(async (ctx) => {
    const list = (await ctx.local()).account.teams();
    await printList(list, [{ header: 'ID', value: (t) => t.id }, { header: 'NAME', value: (t) => t.name }, { header: 'REQUESTER', value: (t) => t.requester_email ?? '' }], ctx.options, (t) => t.id);
  }));
  teams.command('add <name>').description('Add a team').option('--requester-name <name>').option('--requester-email <email>')
    .action(action(async (ctx, o: { requesterName?: string; requesterEmail?: string }, name: string) => {
      const t = (await ctx.local()).account.addTeam({ name, requester_name: o.requesterName, requester_email: o.requesterEmail });
      await printObject(t, Object.entries(t), ctx.options, t.id);
    }));

  const brands = local.command('brands').description('Signing brands of the account');
  brands.command('list', { isDefault: true }).action(action(async (ctx) => {
    const list = (await ctx.local()).account.brands();
    await printList(list, [{ header: 'ID', value: (b) => b.id }, { header: 'NAME', value: (b) => b.name }, { header: 'REDIRECT', value: (b) => b.redirect_url ?? '' }], ctx.options, (b) => b.id);
  }));
  brands.command('add <name>').description('Add a signing brand').option('--redirect-url <url>')
    .action(action(async (ctx, o: { redirectUrl?: string }, name: string) => {
      const b = (await ctx.local()).account.addBrand({ name, redirect_url: o.redirectUrl });
      await printObject(b, Object.entries(b), ctx.options, b.id);
    }));

  local.command('run-due').description('Apply what is due now: expiry, reminders, and documents or evidence a stopped process left pending')
    .action(action(async (ctx) => {
      const e = await ctx.local();
      const done = e.runDue();
      await e.settle();
      const count = (q: string) => (e.db.prepare(q).get() as { n: number }).n;
      const r = {
        ...done,
        pending_documents: count(`SELECT count(*) AS n FROM documents WHERE state = 'pending'`),
        pending_evidence: count(`SELECT count(*) AS n FROM bundles WHERE doc_status = 'pe'`),
      };
      await printObject(r, Object.entries(r), ctx.options, String(r.expired + r.reminded));
    }));

  local.command('outbox').description('Emails and SMS the engine would have sent')
    .option('--bundle <slug>').option('--packet <id>').option('--to <address>').option('--kind <kind>', 'signing_request, reminder, docs_ready, declined')
    .action(action(async (ctx, o: { bundle?: string; packet?: string; to?: string; kind?: string }) => {
      const list = (await ctx.local()).outbox(o);
      await printList(list, [
        { header: 'TIME', value: (m) => m.created }, { header: 'KIND', value: (m) => m.kind }, { header: 'CHANNEL', value: (m) => m.channel },
        { header: 'TO', value: (m) => m.recipient }, { header: 'SUBJECT', value: (m) => m.subject }, { header: 'BUNDLE', value: (m) => m.bundle_id ?? '' },
      ], ctx.options, (m) => String(m.id));
    }));

  registerKeys(local, action);

  const clock = local.command('clock').description('The engine\'s clock, which tests can move forward');
  clock.command('show', { isDefault: true }).action(action(async (ctx) => {
    const c = (await ctx.local()).clock;
    const v = { now: c.now(), offset_ms: c.offset() };
    await printObject(v, Object.entries(v), ctx.options, v.now);
  }));
  clock.command('advance <duration>').description('Move time forward, e.g. 90m, 3d, 1d12h')
    .action(action(async (ctx, _o, duration: string) => {
      // Imported here: clock.js brings the database module (and better-sqlite3) with it.
      const { parseDuration } = await import('../../local/clock.js');
      const ms = parseDuration(duration);
      if (ms === undefined) throw new CliError(`"${duration}" is not a duration (examples: 90s, 15m, 3d, 1d12h).`);
      const e = await ctx.local();
      e.clock.advance(ms);
      // What the new time makes due happens now: expiry and reminders.
      const done = e.runDue();
      const v = { now: e.clock.now(), offset_ms: e.clock.offset(), ...done };
      await printObject(v, Object.entries(v), ctx.options, v.now);
    }));
  clock.command('reset').description('Back to wall-clock time').action(action(async (ctx) => {
    const c = (await ctx.local()).clock;
    c.setOffset(0);
    await printObject({ now: c.now(), offset_ms: 0 }, [['now', c.now()], ['offset_ms', 0]], ctx.options, c.now());
  }));
}

function registerKeys(local: Command, action: Action): void {
  const keys = local.command('keys').description('API keys for esign serve (stored hashed; a key is shown once)');
  keys.command('list', { isDefault: true }).description('List keys')
    .action(action(async (ctx) => {
      const list = (await ctx.local()).keys.list();
      await printList(list, [
        { header: 'ID', value: (k) => k.id }, { header: 'NAME', value: (k) => k.name }, { header: 'PREFIX', value: (k) => k.prefix },
        { header: 'CREATED', value: (k) => k.created }, { header: 'REVOKED', value: (k) => k.revoked_at ?? '' },
      ], ctx.options, (k) => k.id);
    }));
  keys.command('create').description('Create a key and print it (only this once)')
    .option('--name <name>', 'what the key is for', 'default')
    .action(action(async (ctx, o: { name: string }) => {
      const { record, key } = (await ctx.local()).keys.create(o.name);
      if (ctx.options.json) return printObject({ ...record, key }, [], ctx.options);
      if (!ctx.options.quiet) process.stderr.write(`Created API key ${record.id} (${record.name}). It is shown only now:\n`);
      process.stdout.write(`${key}\n`);
    }));
  keys.command('revoke <id>').description('Revoke a key by id or prefix')
    .action(action(async (ctx, _o, id: string) => {
      const k = (await ctx.local()).keys.revoke(id);
      await printObject(k, Object.entries(k), ctx.options, k.id);
    }));
}
