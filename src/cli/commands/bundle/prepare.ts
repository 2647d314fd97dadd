// esign bundle prepare: a single-use URL where a person prepares and sends a Bundle in the browser.
import { CliError, EXIT } from '../../exitCodes.js';
import { fieldsOf, printObject } from '../../output/print.js';
import { collect } from '../../run.js';
import { defineVerb } from '../../verb.js';

export const prepare = defineVerb(
  'prepare',
  'A single-use URL where a person prepares and sends a Bundle in the browser',
  {
    flags: (c) =>
      c
        .option('--upload-pdf', 'let the person upload PDFs')
        .option('--template <uuid>', 'offer this Document Template (repeatable)', collect)
        .option('--folder <id>', 'offer the templates of this folder (repeatable)', collect)
        .option('--draft <slug>', 'resume this draft Bundle')
        .option('--search-signers', 'let the person pick signers from saved Persons')
        .option('--redirect <url>', 'where the browser goes when done'),
    examples: [
      'esign bundle prepare --upload-pdf',
      'esign bundle prepare --template 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c --search-signers',
    ],
    async run(f, o) {
      const body: Record<string, unknown> = {};
      if (o.uploadPdf) body.upload_pdf = true;
      if (o.template?.length) body.template_ids = o.template;
      if (o.folder?.length) body.folder_ids = o.folder;
      if (o.draft) body.draft_bundle = o.draft;
      if (o.searchSigners) body.allow_search_signers = true;
      if (o.redirect) body.redirect_url = o.redirect;
      if (!o.uploadPdf && !o.template?.length && !o.folder?.length)
        throw new CliError(
          'Give at least one document source: --upload-pdf, --template ID or --folder ID.',
          EXIT.USAGE,
        );
      const u = await (await f.service()).createBundlePreparationSession(body);
      await printObject(f, u, fieldsOf(u, ['url', 'expires']), u.url);
    },
  },
);
