// esign envelope-template list|get (Envelope Templates: reusable Bundle definitions)
import type { Command } from 'commander';
import type { EnvelopeTemplate } from '../../service/types.js';
import type { Factory } from '../factory.js';
import { printList, printObject } from '../output.js';
import { type PageFlags, addPageOptions, fetchPages } from '../paging.js';
import type { Action } from '../run.js';

const byOrder = <T extends { order: number }>(list: T[]) => [...list].sort((a, b) => a.order - b.order);

export async function showEnvelopeTemplate(ctx: Factory, t: EnvelopeTemplate): Promise<void> {
  await printObject(ctx, t, [
    ['id', t.id], ['name', t.name], ['description', t.description], ['created', t.created],
    ['is_shared', t.is_shared], ['is_portal', t.is_portal], ['allow_direct_signing', t.allow_direct_signing],
    ['documents', byOrder(t.documents).map((d) => `${d.key} (${d.name})`)],
    ...byOrder(t.signers).map((s, i): [string, unknown] => {
      const auth = ['sms', 'selfie', 'id'].filter((k) => s[`auth_${k}` as 'auth_sms']);
      return [`signer ${i + 1}`, `${s.key} (${s.label})${auth.length ? ` auth: ${auth.join(', ')}` : ''}`];
    }),
    ['smart_link_url', t.smart_link_url],
  ], t.id);
}

export function registerEnvelopeTemplate(program: Command, action: Action): void {
  const et = program.command('envelope-template').description('Envelope Templates: reusable Bundles (documents and signer roles)');

  addPageOptions(et.command('list').description('List enabled Envelope Templates, newest first'))
    .action(action(async (ctx, o: PageFlags) => {
      const service = await ctx.service();
      const items = await fetchPages(ctx, (q) => service.listEnvelopeTemplates(q), o);
      await printList(ctx, items, [
        { header: 'ID', value: (t) => t.id }, { header: 'NAME', value: (t) => t.name },
        { header: 'SIGNERS', value: (t) => byOrder(t.signers).map((s) => s.key) },
        { header: 'DOCUMENTS', value: (t) => byOrder(t.documents).map((d) => d.name) },
        { header: 'CREATED', value: (t) => t.created },
      ], (t) => t.id);
    }));

  et.command('get <id>').description('Show an Envelope Template')
    .action(action(async (ctx, _o, id: string) => showEnvelopeTemplate(ctx, await (await ctx.service()).getEnvelopeTemplate(id))));
}
