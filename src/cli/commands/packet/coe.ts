// esign packet coe ID [--download FILE]: the signer's Certificate of Evidence.
import { fieldsOf, printObject } from '../../output/print.js';
import { CLOBBER } from '../../flags.js';
import { defineVerb } from '../../verb.js';
import { download } from '../../../app/download.js';

export const coe = defineVerb('coe <id>', "The signer's Certificate of Evidence (a link, or the PDF with --download)", {
  flags: (c) => c.option('--download <file>', 'save the PDF here').option('--clobber', 'replace the file if it exists'),
  examples: ['esign packet coe Rw3pLk8sQe', 'esign packet coe Rw3pLk8sQe --download coe.pdf'],
  async run(f, o, id) {
    const c = await (await f.service()).getPacketCoe(id);
    if (!o.download) return printObject(f, c, fieldsOf(c, ['file_url', 'expires', 'sha256']), c.file_url);
    const saved = await download(f, c.file_url, o.download, c.sha256, { clobber: o.clobber, replaceHint: CLOBBER });
    await printObject(
      f,
      saved,
      [...fieldsOf(saved, ['path']), ['bytes', saved.size], ...fieldsOf(saved, ['sha256'])],
      saved.path,
    );
  },
});
