// Is a file the signed PDF, combined PDF or Certificate of Evidence of a completed Bundle? Files are
// hashed where they are (hashFile.ts); only the hashes are asked of the backend, one at a time.
import type { EsignService } from '../service/service.js';
import type { VerifyResult } from '../service/types.js';

export interface HashToVerify {
  /** What the hash stands for in the answer: a path, or `hash` when it was given as such. */
  file: string;
  hash: string;
}

export type Verified = { file: string } & VerifyResult;

export async function verifyHashes(service: EsignService, inputs: readonly HashToVerify[]): Promise<Verified[]> {
  const results: Verified[] = [];
  for (const i of inputs) results.push({ file: i.file, ...(await service.verify(i.hash)) });
  return results;
}
