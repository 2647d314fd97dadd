// esign bundle prepare: a single-use URL where a person prepares and sends a Bundle in the browser.
import type { Command } from '@commander-js/extra-typings';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { printObject } from '../../output/print.js';
import { type Action, collect } from '../../run.js';

export interface PrepareOptions {
  uploadPdf?: boolean;
  template?: string[];
  folder?: string[];
  draft?: string;
  searchSigners?: boolean;
  redirect?: string;
}

export function register(bundle: Command, action: Action): void {
  bundle
    .command('prepare')
    .description('A single-use URL where a person prepares and sends a Bundle in the browser')
    .option('--upload-pdf', 'let the person upload PDFs')
    .option('--template <uuid>', 'offer this Document Template (repeatable)', collect)
    .option('--folder <id>', 'offer the templates of this folder (repeatable)', collect)
    .option('--draft <slug>', 'resume this draft Bundle')
    .option('--search-signers', 'let the person pick signers from saved Persons')
    .option('--redirect <url>', 'where the browser goes when done')
    .action(action(run));
}

export async function run(f: Factory, o: PrepareOptions): Promise<void> {
  const body: Record<string, unknown> = {};
  if (o.uploadPdf) body.upload_pdf = true;
  if (o.template?.length) body.template_ids = o.template;
  if (o.folder?.length) body.folder_ids = o.folder;
  if (o.draft) body.draft_bundle = o.draft;
  if (o.searchSigners) body.allow_search_signers = true;
  if (o.redirect) body.redirect_url = o.redirect;
  if (!o.uploadPdf && !o.template?.length && !o.folder?.length)
    throw new CliError('Give at least one document source: --upload-pdf, --template ID or --folder ID.', EXIT.USAGE);
  const u = await (await f.service()).createBundlePreparationSession(body);
  await printObject(
    f,
    u,
    [
      ['url', u.url],
      ['expires', u.expires],
    ],
    u.url,
  );
}
