// Downloading `file_url` documents: a time limit, a size limit, at most five redirects, and (on
// esign serve, unless the account allows them) no addresses in private, loopback or link-local
// ranges. The address is checked when the connection is made, so DNS cannot switch it afterwards.
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { loadUndici } from '../lazyImport.js';

export const DOWNLOAD_TIMEOUT_MS = 30_000;
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
export const MAX_REDIRECTS = 5;

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) PRIVATE.addSubnet(net, bits, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
    return PRIVATE.check(address, 'ipv6');
  }
  return family === 4 && PRIVATE.check(address, 'ipv4');
}

class RefusedAddress extends Error {}

/** dns.lookup for connections that must not reach private addresses. */
function publicOnlyLookup(hostname: string, options: object, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new RefusedAddress(`${hostname} resolves to ${bad.address}, a private or loopback address, which esign serve does not fetch (see esign local account set --allow-private-urls).`), '');
    if ((options as { all?: boolean }).all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}

/** GET with the limits above; a non-2xx answer, a refused address or a network failure is an Error. */
export async function downloadDocument(url: string, opts: { publicOnly: boolean }): Promise<Buffer> {
  const { Agent, fetch } = await loadUndici();
  const agent = new Agent({ connect: opts.publicOnly ? { lookup: publicOnlyLookup } : {} });
  try {
    let current = url;
    const deadline = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS); // for the whole download, redirects included
    for (let hop = 0; ; hop++) {
      const u = new URL(current);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`Only http and https URLs can be fetched, not ${u.protocol}`);
      if (opts.publicOnly && isIP(u.hostname.replace(/^\[|\]$/g, '')) && isPrivateAddress(u.hostname.replace(/^\[|\]$/g, '')))
        throw new Error(`${u.hostname} is a private or loopback address, which esign serve does not fetch (see esign local account set --allow-private-urls).`);
      let res: Awaited<ReturnType<typeof fetch>>;
      try {
        res = await fetch(current, { redirect: 'manual', dispatcher: agent, signal: deadline });
      } catch (e) {
        const cause = (e as { cause?: Error & { code?: string } }).cause;
        if (cause instanceof RefusedAddress) throw new Error(cause.message);
        const why = (e as Error).name === 'TimeoutError' ? `no answer within ${DOWNLOAD_TIMEOUT_MS / 1000} s` : cause?.code ?? cause?.message ?? (e as Error).message;
        throw new Error(`The file could not be downloaded from ${url} (${why}).`);
      }
      if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
        await res.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw new Error(`The file could not be downloaded from ${url}: more than ${MAX_REDIRECTS} redirects.`);
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
