// esign bundle get SLUG: one Bundle.
import { note } from '../../output/print.js';
import { defineVerb } from '../../verb.js';
import { showBundle } from './shared/display.js';
import { getBundleOrPacketsBundle } from '../../../app/bundleRef.js';

export const get = defineVerb('get <slug>', 'Show a Bundle', {
  flags: (c) => c.option('--include <members>', 'comma-separated: data, events, files'),
  examples: ['esign bundle get 9KwSrpJdyp', 'esign bundle get 9KwSrpJdyp --include data,files --json'],
  async run(f, o, slug) {
    const b = await getBundleOrPacketsBundle(await f.service(), slug, o.include);
    if (o.include && !f.options.json && !f.options.quiet) note(f, '(included members are shown with --json)');
    await showBundle(f, b);
  },
});
