// esign packet get|update|remind|embed-url|coe
import type { Command } from 'commander';
import { packetStateWord } from '../../service/states.js';
import type { Packet } from '../../service/types.js';
import type { Factory } from '../factory.js';
import { CliError, EXIT } from '../exitCodes.js';
import { printObject } from '../output.js';
import { type Action, readJsonInput } from '../run.js';

export async function showPacket(ctx: Factory, p: Packet): Promise<void> {
  const service = await ctx.service();
  const bundle = service.bundleOfPacket ? await service.bundleOfPacket(p.id) : undefined;
  await printObject(ctx, bundle ? { ...p, bundle } : p, [
    ['id', p.id], ...(bundle ? [['bundle', bundle] as [string, unknown]] : []), ['name', p.name], ['email', p.email], ['phone', p.phone], ['deliver_via', p.deliver_via],
    ['order', p.order], ['status', ctx.io.out.isTTY ? packetStateWord(p.status) : p.status], ['completed_at', p.completed_at], ['last_accessed_at', p.last_accessed_at],
    ['auth', ['sms', 'selfie', 'id'].filter((k) => p[`auth_${k}` as 'auth_sms'])],
    ['suppress', ['all', 'signing', 'reminder', 'docs_ready'].filter((k) => p[`suppress_${k}` as 'suppress_all'])],
  ], p.id);
}

const BOOLEAN_FLAGS = ['authSms', 'authSelfie', 'authId', 'suppressAll', 'suppressSigning', 'suppressReminder', 'suppressDocsReady'] as const;
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export function registerPacket(program: Command, action: Action): void {
  const packet = program.command('packet').description('Inspect and change one signer\'s packet');

  packet.command('get <id>').description('Show a packet')
    .action(action(async (ctx, _o, id: string) => showPacket(ctx, await (await ctx.service()).getPacket(id))));

  const update = packet.command('update <id>').description('Change a signer\'s details or delivery')
    .option('-f, --spec <file>', 'packet PATCH JSON (- for stdin)')
    .option('--name <name>').option('--email <email>').option('--phone <phone>')
    .option('--deliver-via <email|phone>')
    .option('--redirect <url>', 'signing_complete_redirect (Signing Brands feature)');
  for (const f of BOOLEAN_FLAGS) {
    const flag = snake(f).replace(/_/g, '-');
    update.option(`--${flag}`).option(`--no-${flag}`);
  }
  update.action(action(async (ctx, o: Record<string, unknown>, id: string) => {
    const body: Record<string, unknown> = o.spec ? await readJsonInput(ctx.io, o.spec as string, '--spec') : {};
    for (const k of ['name', 'email', 'phone'] as const) if (o[k] !== undefined) body[k] = o[k];
    if (o.deliverVia !== undefined) body.deliver_via = o.deliverVia;
    if (o.redirect !== undefined) body.signing_complete_redirect = o.redirect;
    for (const f of BOOLEAN_FLAGS) if (o[f] !== undefined) body[snake(f)] = o[f];
    if (!Object.keys(body).length) throw new CliError('Nothing to change: give at least one option (see esign packet update --help).', EXIT.USAGE);
    await showPacket(ctx, await (await ctx.service()).updatePacket(id, body));
  }));

  packet.command('remind <id>').description('Send the signer a reminder (at most once an hour)')
    .action(action(async (ctx, _o, id: string) => showPacket(ctx, await (await ctx.service()).remindPacket(id))));

  packet.command('embed-url <id>').description('A single-use, expiring URL for embedded signing')
    .action(action(async (ctx, _o, id: string) => {
      const u = await (await ctx.service()).createEmbedUrl(id);
      await printObject(ctx, u, [['url', u.url], ['expires', u.expires]], u.url);
    }));

  packet.command('coe <id>').description('The signer\'s Certificate of Evidence (a link, or the PDF with --download)')
    .option('--download <file>', 'save the PDF here')
    .action(action(async (ctx, o: { download?: string }, id: string) => {
      const c = await (await ctx.service()).getPacketCoe(id);
      if (o.download) {
        const { download } = await import('../download.js');
        const saved = await download(ctx, c.file_url, o.download, c.sha256);
        return printObject(ctx, saved, [['path', saved.path], ['bytes', saved.size], ['sha256', saved.sha256]], saved.path);
      }
      await printObject(ctx, c, [['file_url', c.file_url], ['expires', c.expires], ['sha256', c.sha256]], c.file_url);
    }));
}
