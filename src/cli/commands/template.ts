// esign template list|get|metadata set|unset|clear|delete|prepare (Document Templates)
import type { Command } from 'commander';
import type { DocumentTemplate, EmbedUrl } from '../../service/types.js';
import type { Factory } from '../factory.js';
import { CliError, EXIT } from '../exitCodes.js';
import { keyValueItems, printDeleted, printList, printObject } from '../output.js';
import { type PageFlags, addPageOptions, fetchPages } from '../paging.js';
import { type Action, collect, confirm, keyValues } from '../run.js';

export async function showTemplate(ctx: Factory, t: DocumentTemplate): Promise<void> {
  await printObject(ctx, t, [
    ['id', t.id], ['name', t.name], ['is_shared', t.is_shared],
    ['roles', t.roles.map((r) => (r.label && r.label !== r.key ? `${r.key} (${r.label})` : r.key))],
    ['fields', t.fields.map((f) => String(f.key ?? f.label ?? f.kind ?? '?'))],
    ['metadata', keyValueItems(t.metadata)], ['teams', t.teams], ['file_url', t.file_url],
  ], t.id);
}

/** A preparation session: its single-use URL and when it expires. */
export async function showSession(ctx: Factory, u: EmbedUrl): Promise<void> {
  await printObject(ctx, u, [['url', u.url], ['expires', u.expires]], u.url);
}

/** `--metadata k=v` flags as an object; values must not be empty ("" deletes a key in a PATCH). */
export function metadataFlags(list: string[] | undefined, flag = '--metadata'): Record<string, string> | undefined {
  if (!list?.length) return undefined;
  const pairs = keyValues(list, flag);
  for (const [k, v] of pairs)
    if (v === '') throw new CliError(`${flag} ${k}=: an empty value deletes the key; use esign template metadata unset to remove it.`, EXIT.USAGE);
  return Object.fromEntries(pairs);
}

export function registerTemplate(program: Command, action: Action): void {
  const template = program.command('template').description('Document Templates: reusable PDFs with signer roles and fields');

  addPageOptions(template.command('list').description('List Document Templates')
    .option('--metadata <key=value>', 'only templates whose metadata has this value (repeatable; all must match)', collect))
    .action(action(async (ctx, o: PageFlags & { metadata?: string[] }) => {
      const service = await ctx.service();
      const metadata = o.metadata?.length ? Object.fromEntries(keyValues(o.metadata, '--metadata')) : undefined;
      const items = await fetchPages(ctx, (q) => service.listTemplates({ ...q, metadata }), o);
      await printList(ctx, items, [
        { header: 'ID', value: (t) => t.id }, { header: 'NAME', value: (t) => t.name },
        { header: 'ROLES', value: (t) => t.roles.map((r) => r.key) }, { header: 'SHARED', value: (t) => t.is_shared },
        { header: 'METADATA', value: (t) => keyValueItems(t.metadata) },
      ], (t) => t.id);
    }));

  template.command('get <id>').description('Show a Document Template')
    .action(action(async (ctx, _o, id: string) => showTemplate(ctx, await (await ctx.service()).getTemplate(id))));

  const metadata = template.command('metadata').description('Change a template\'s metadata (the only writable member)');
  metadata.command('set <id> <pairs...>').description('Set or change keys: KEY=VALUE ... (other keys are kept)')
    .action(action(async (ctx, _o, id: string, pairs: string[]) => {
      const values = metadataFlags(pairs, 'metadata set')!;
      await showTemplate(ctx, await (await ctx.service()).updateTemplate(id, { metadata: values }));
    }));
  metadata.command('unset <id> <keys...>').description('Remove keys (absent keys are ignored)')
    .action(action(async (ctx, _o, id: string, keys: string[]) => {
      const body = { metadata: Object.fromEntries(keys.map((k) => [k, ''])) };
      await showTemplate(ctx, await (await ctx.service()).updateTemplate(id, body));
    }));
  metadata.command('clear <id>').description('Remove every key')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(async (ctx, o: { yes?: boolean }, id: string) => {
      await confirm(ctx, `Remove all metadata of template ${id}?`, o.yes);
      await showTemplate(ctx, await (await ctx.service()).updateTemplate(id, { metadata: '' }));
    }));

  template.command('delete <id>').description('Delete a Document Template')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(async (ctx, o: { yes?: boolean }, id: string) => {
      await confirm(ctx, `Delete template ${id}?`, o.yes);
      await (await ctx.service()).deleteTemplate(id);
      printDeleted(ctx, 'template', id);
    }));

  template.command('prepare').description('A single-use URL where a person creates or edits a template')
    .option('--template <id>', 'edit this template (omit to create one)')
    .option('--team <uuid>', 'team of a new template')
    .option('--library <name>', 'folder of a new template')
    .option('--metadata <key=value>', 'metadata of the template (repeatable)', collect)
    .action(action(async (ctx, o: { template?: string; team?: string; library?: string; metadata?: string[] }) => {
      const body: Record<string, unknown> = {};
      if (o.template) body.template_id = o.template;
      if (o.team) body.team = o.team;
      if (o.library) body.library = o.library;
      const md = metadataFlags(o.metadata);
      if (md) body.metadata = md;
      await showSession(ctx, await (await ctx.service()).createTemplatePreparationSession(body));
    }));
}
