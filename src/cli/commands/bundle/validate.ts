// esign bundle validate SLUG: whether a draft can be sent.
import { CliError, EXIT } from '../../exitCodes.js';
import { fieldsOf, printObject } from '../../output/print.js';
import { defineVerb } from '../../verb.js';

export const validate = defineVerb('validate <slug>', 'Check whether a draft can be sent', {
  examples: ['esign bundle validate 9KwSrpJdyp', 'esign bundle validate 9KwSrpJdyp --json'],
  async run(f, _o, slug) {
    const r = await (await f.service()).validateBundle(slug);
    await printObject(f, r, fieldsOf(r, ['can_send', 'msg', 'n_docs']), String(r.can_send));
    if (!r.can_send)
      throw new CliError(`Bundle ${slug} cannot be sent: ${r.msg || 'no reason given'}`, EXIT.CANNOT_SEND);
  },
});
