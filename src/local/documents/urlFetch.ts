// Downloading `file_url` documents: a time limit, a size limit, at most five redirects, and (on
// esign serve, unless allowed) no addresses in private, loopback or link-local ranges: the one
// outbound-address policy of net/addressPolicy.ts, checked as each hop's connection is made.
import { loadUndici } from '../../lazyImport.js';
import { type OutboundPolicy, outboundAgent, refusalOf } from '../net/addressPolicy.js';

export { isPrivateAddress } from '../net/addressPolicy.js';

const DOWNLOAD_TIMEOUT_MS = 30_000;
const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
const MAX_REDIRECTS = 5;

/** GET with the limits above; a non-2xx answer, a refused address or a network failure is an Error. */
export async function downloadDocument(url: string, policy: OutboundPolicy): Promise<Buffer> {
  const { fetch } = await loadUndici();
  const agent = await outboundAgent(policy);
  try {
    let current = url;
    const deadline = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS); // for the whole download, redirects included
    for (let hop = 0; ; hop++) {
      const u = new URL(current);
      if (u.protocol !== 'http:' && u.protocol !== 'https:')
        throw new Error(`Only http and https URLs can be fetched, not ${u.protocol}`);
      let res: Awaited<ReturnType<typeof fetch>>;
      try {
        res = await fetch(current, { redirect: 'manual', dispatcher: agent, signal: deadline });
      } catch (e) {
        const refused = refusalOf(e);
        if (refused) throw new Error(refused.message);
        const cause = (e as { cause?: Error & { code?: string } }).cause;
        const why =
          (e as Error).name === 'TimeoutError'
            ? `no answer within ${DOWNLOAD_TIMEOUT_MS / 1000} s`
            : (cause?.code ?? cause?.message ?? (e as Error).message);
        throw new Error(`The file could not be downloaded from ${url} (${why}).`);
      }
      if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
        await res.body?.cancel();
        if (hop >= MAX_REDIRECTS)
          throw new Error(`The file could not be downloaded from ${url}: more than ${MAX_REDIRECTS} redirects.`);
        current = new URL(res.headers.get('location')!, current).toString();
        continue;
      }
      if (!res.ok) throw new Error(`The file could not be downloaded from ${url} (HTTP ${res.status}).`);
      const declared = Number(res.headers.get('content-length') ?? 0);
      if (declared > MAX_DOCUMENT_BYTES) throw new Error(`The file is larger than ${MAX_DOCUMENT_BYTES / 1048576} MB.`);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body ?? []) {
        size += chunk.length;
        if (size > MAX_DOCUMENT_BYTES) throw new Error(`The file is larger than ${MAX_DOCUMENT_BYTES / 1048576} MB.`);
        chunks.push(Buffer.from(chunk));
      }
      return Buffer.concat(chunks);
    }
  } finally {
    // destroy, not close: an abandoned body (too large, bad answer) must not keep the socket waiting.
    await agent.destroy();
  }
}
