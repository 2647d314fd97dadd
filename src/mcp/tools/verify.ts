// verify_documents: is a file the signed PDF, combined PDF or Certificate of Evidence of a
// completed Bundle? (the use case app/verify). Files are given by path (hashed here, stdio only) or
// by SHA-256.
import { resolve } from 'node:path';
import { z } from 'zod';
import { sha256File } from '../../app/hashFile.js';
import { verifyHashes } from '../../app/verify.js';
import { count, ours, say } from '../prose.js';
import { Refusal } from '../tool.js';
import { job } from './kit.js';

const VERIFY_ITEMS = 50;
const sha256 = z.string().regex(/^[0-9a-fA-F]{64}$/, { error: 'Must be a SHA-256 hash: 64 hexadecimal characters.' });

export const verifyDocuments = (fileAccess: boolean) =>
  job({
    name: 'verify_documents',
    title: 'Verify signed documents',
    description:
      'Is this the signed PDF, combined PDF or Certificate of Evidence of a completed Bundle? Give ' +
      `${fileAccess ? 'paths on this machine (hashed here) or ' : ''}SHA-256 hashes. Each result: match or no_match, with its Bundle.`,
    uses: ['verify'],
    input: z.strictObject({
      ...(fileAccess ? { paths: z.array(z.string().min(1).max(4096)).max(VERIFY_ITEMS).optional() } : {}),
      hashes: z.array(sha256).max(VERIFY_ITEMS).optional(),
    }),
    output: z.object({
      all_match: z.boolean(),
      results: z.array(z.looseObject({ file: z.string(), status: z.enum(['match', 'no_match']), sha256: z.string() })),
    }),
    async run(a, ctx) {
      const paths = ((a as { paths?: string[] }).paths ?? []) as string[];
      const inputs = (a.hashes ?? []).map((h) => ({ file: 'hash', hash: h.toLowerCase() }));
      if (!paths.length && !inputs.length)
        throw new Refusal(say`Nothing to verify: give paths or hashes.`, {
          error: { code: 'invalid', errors: [{ field: 'hashes', message: 'Give paths or hashes.' }] },
        });
      for (const [i, p] of paths.entries())
        inputs.push({
          file: p,
          hash: await sha256File(resolve(p)).catch((e: NodeJS.ErrnoException) => {
            throw new Refusal(say`paths[${i}] cannot be read (see the data).`, {
              error: { code: 'invalid', path: p, reason: e.code === 'ENOENT' ? 'no such file' : e.message },
            });
          }),
        });
      const results = await verifyHashes(ctx.service, inputs);
      const matched = results.filter((r) => r.status === 'match').length;
      return {
        say: say`${matched} of ${count(results.length, 'file')} ${ours(results.length === 1 ? 'matches' : 'match')} a completed Bundle's signed files.`,
        data: { all_match: matched === results.length, results },
      };
    },
  });
