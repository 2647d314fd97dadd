// esign verify FILE... | --hash HEX: is this the signed PDF, combined PDF or Certificate of
// Evidence of a completed Bundle? Files are hashed here; only the hash is sent.
import { type HashToVerify, verifyHashes } from '../../../app/verify.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { printList } from '../../output/print.js';
import { sha256Arg } from '../../flags.js';
import { unreadable } from '../../run.js';
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { defineVerb } from '../../verb.js';
import { prefetchHashes, sha256File } from '../../../app/hashFile.js';

export const verify = defineVerb(
  'verify [files...]',
  'Check files (a directory: each file in it; -: stdin) or SHA-256 hashes against completed Bundles; exit 9 when any does not match',
  {
    flags: (c) => c.option('--hash <hex>', 'a SHA-256 to check instead of a file (repeatable)', sha256Arg),
    examples: [
      'esign verify signed.pdf downloads/9KwSrpJdyp/',
      'curl -s "$FILE_URL" | esign verify -',
      'esign verify --hash 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    ],
    async run(f, o, files = []) {
      if (!files.length && !o.hash?.length) throw new CliError('Give one or more files, or --hash HEX.', EXIT.USAGE);
      const { err } = f.io;
      const showProgress = err.isTTY && !f.options.json;
      const inputs: HashToVerify[] = (o.hash ?? []).map((h) => ({ file: 'hash', hash: h }));
      const names = await expandFiles(files);
      // A directory's large files hash on every core at once; the loop takes each answer in turn.
      prefetchHashes(names.filter((n) => n !== '-'));
      for (const file of names) {
        if (file === '-') {
          inputs.push({ file: '-', hash: await sha256Stream(f.io.stdin) });
          continue;
        }
        let last = -1;
        const hash = await sha256File(
          file,
          showProgress
            ? (done, total) => {
                const pct = total ? Math.floor((done / total) * 100) : 100;
                if (pct !== last) err.write(`\rHashing ${file}: ${(last = pct)}%\x1b[K`);
              }
            : undefined,
        ).catch((e: unknown) => {
          throw unreadable('', file, e);
        });
        if (showProgress) err.write('\r\x1b[K');
        inputs.push({ file, hash });
      }
      const results = await verifyHashes(await f.service(), inputs);
      await printList(
        f,
        results,
        [
          { header: 'FILE', value: (r) => r.file, kind: 'path', priority: 1 },
          { header: 'RESULT', value: (r) => r.status, priority: 2 },
          // Kept whole before the path is cut (from its left): which file of the Bundle it is.
          { header: 'TYPE', value: (r) => r.document_type ?? '', priority: 1 },
          { header: 'BUNDLE', value: (r) => r.envelope?.bundle_slug ?? '', kind: 'id' },
          { header: 'COMPLETED', value: (r) => r.envelope?.completed_at ?? '', kind: 'time' },
          { header: 'SHA256', value: (r) => r.sha256, priority: -2 },
        ],
        (r) => r.sha256,
      );
      const misses = results.filter((r) => r.status !== 'match');
      if (misses.length)
        throw new CliError(`${misses.length} of ${results.length} did not match a completed Bundle.`, EXIT.MISMATCH);
    },
  },
);

/** The files named: a directory stands for each regular file in it (by name); `-` is stdin, once. */
async function expandFiles(names: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const name of names) {
    if (name === '-') {
      if (out.includes('-')) throw new CliError('verify: stdin (-) can be given once.', EXIT.USAGE);
      out.push(name);
      continue;
    }
    const s = await stat(name).catch((e: unknown) => {
      throw unreadable('', name, e);
    });
    if (!s.isDirectory()) {
      out.push(name);
      continue;
    }
    const inside: string[] = [];
    for (const e of await readdir(name, { withFileTypes: true }))
      if (e.isFile() && !e.name.startsWith('.')) inside.push(join(name, e.name));
    if (!inside.length) throw new CliError(`${name}: a directory with no files to verify.`, EXIT.USAGE);
    out.push(...inside.sort());
  }
  return out;
}

/** SHA-256 of a stream as it passes (stdin of any length is never held whole). */
async function sha256Stream(input: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const c of input) hash.update(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return hash.digest('hex');
}
