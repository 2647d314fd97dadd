// The one outbound-address policy: everything esign serve connects to (file_url downloads, webhook
// deliveries, any future fetch) goes through `outboundAgent`. Unless private addresses are allowed
// (`esign serve --allow-private-urls`, or the account setting), no connection is made to a private,
// loopback, link-local or otherwise internal address, in any of its IPv6 spellings; with `loopback`
// (esign serve listening on loopback only: whoever can call it is on this machine already),
// loopback addresses are let through, and the other private ranges still are not. The address is
// checked when each connection is made (every redirect hop makes its own), both as DNS answered and
// as the socket actually connected, so DNS cannot switch it after a check.
import type { LookupAddress } from 'node:dns';
import { isIP, type Socket } from 'node:net';
import type { buildConnector, Dispatcher } from 'undici';
import { loadUndici } from '../../lazyImport.js';

/** node:dns when a name is looked up: every engine that never connects would load it at start-up. */
const dnsLookup = () => process.getBuiltinModule('node:dns').lookup;

/** IPv4 ranges that are not the public internet (RFC 6890 and friends). */
const V4_RANGES: [number, number][] = (
  [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const
).map(([net, bits]) => [v4Number(net)!, bits]);

function v4Number(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function privateV4(n: number): boolean {
  return V4_RANGES.some(([net, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(net / 2 ** (32 - bits)));
}

/** The 8 16-bit groups of an IPv6 address (a trailing dotted quad included), or undefined. */
function v6Groups(text: string): number[] | undefined {
  let s = text.replace(/%.*$/, '');
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (quad) {
    const n = v4Number(quad[1]!);
    if (n === undefined) return undefined;
    s = `${s.slice(0, -quad[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const part = (h: string) => (h ? h.split(':').map((g) => parseInt(g, 16)) : []);
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const fill = 8 - head.length - tail.length;
  if ((halves.length === 2 ? fill < 0 : fill !== 0) || [...head, ...tail].some((g) => Number.isNaN(g) || g > 0xffff))
    return undefined;
  return [...head, ...Array<number>(Math.max(0, fill)).fill(0), ...tail];
}

function privateV6(g: number[]): boolean {
  const v4 = (hi: number, lo: number) => privateV4(hi * 65536 + lo);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  // ::a.b.c.d (IPv4-compatible, :: and ::1 among them) and ::ffff:a.b.c.d (IPv4-mapped).
  if (zeros(0, 5) && (g[5] === 0 || g[5] === 0xffff)) return v4(g[6]!, g[7]!);
  // ::ffff:0:a.b.c.d (IPv4-translated).
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6]!, g[7]!);
  // 64:ff9b::a.b.c.d (NAT64), and the local-use NAT64 prefix 64:ff9b:1::/48 as a whole.
  if (g[0] === 0x64 && g[1] === 0xff9b) return g[2] === 1 || (zeros(2, 6) ? v4(g[6]!, g[7]!) : false);
  // 2002:aabb:ccdd::/48 (6to4) carries a.b.c.d.
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  if (g[0] === 0x2001 && g[1] === 0) return true; // Teredo: the far end is not what it seems.
  if (g[0] === 0x2001 && g[1] === 0xdb8) return true; // documentation
  if (g[0] === 0x100 && zeros(1, 4)) return true; // discard-only
  const top = g[0]!;
  return (
    (top & 0xfe00) === 0xfc00 /* unique local */ ||
    (top & 0xffc0) === 0xfe80 /* link-local */ ||
    (top & 0xffc0) === 0xfec0 /* site-local */ ||
    (top & 0xff00) === 0xff00 /* multicast */
  );
}

/** True for any address that is not a public unicast address (what the policy refuses). */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return privateV4(v4Number(bare)!);
  if (family === 6) {
    const g = v6Groups(bare);
    return g === undefined || privateV6(g);
  }
  return false;
}

/** True for a loopback address: 127.0.0.0/8 and ::1, also written as an IPv4-mapped IPv6 address. */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return bare.startsWith('127.');
  if (family !== 6) return false;
  const g = v6Groups(bare);
  if (!g) return false;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 7) && g[7] === 1) return true;
  return zeros(0, 5) && g[5] === 0xffff && g[6]! >> 8 === 127;
}

/** What esign serve may connect to. */
export interface OutboundPolicy {
  /** Refuse private addresses (esign serve, unless allowed). */
  publicOnly: boolean;
  /** With publicOnly, still let loopback addresses through (esign serve listening on loopback only). */
  loopback?: boolean;
}

/** Whether the policy refuses a connection to `address`. */
function refusesAddress(policy: OutboundPolicy, address: string): boolean {
  return policy.publicOnly && isPrivateAddress(address) && !(policy.loopback && isLoopbackAddress(address));
}

/** A connection the policy refused. Its message names the host as given, never what DNS answered. */
export class RefusedAddress extends Error {
  readonly code = 'ESIGN_REFUSED_ADDRESS';
  constructor(host: string) {
    super(
      `${host} is a private or loopback address, which esign serve does not connect to (see esign serve --allow-private-urls).`,
    );
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that fails when any answer is refused: a name with one internal answer is not trusted with the rest. */
const policedLookup =
  (policy: OutboundPolicy) =>
  (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup()(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as LookupAddress[];
      if (!list.length || list.some((a) => refusesAddress(policy, a.address)))
        return callback(new RefusedAddress(hostname) as NodeJS.ErrnoException, '');
      if ((options as { all?: boolean }).all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };

export interface OutboundOptions extends OutboundPolicy {
  /** undici Agent options (keep-alive, connections). */
  agent?: Omit<ConstructorParameters<typeof import('undici').Agent>[0] & object, 'connect'>;
}

/** An undici dispatcher whose every connection obeys the policy. */
export async function outboundAgent(opts: OutboundOptions): Promise<Dispatcher> {
  const { Agent, buildConnector } = await loadUndici();
  if (!opts.publicOnly) return new Agent({ ...opts.agent });
  const connector = buildConnector({ lookup: policedLookup(opts) } as buildConnector.BuildOptions);
  const connect: buildConnector.connector = (options, callback) => {
    // An address literal skips DNS: it is checked as written.
    if (isIP(options.hostname.replace(/^\[|\]$/g, '')) && refusesAddress(opts, options.hostname)) {
      callback(new RefusedAddress(options.hostname), null);
      return;
    }
    connector(options, (err, socket) => {
      if (err) return callback(err, null);
      // Whatever resolved it, the peer actually connected to must be allowed too.
      const peer = (socket as Socket).remoteAddress;
      if (peer && refusesAddress(opts, peer)) {
        socket!.destroy();
        return callback(new RefusedAddress(options.hostname), null);
      }
      callback(null, socket!);
    });
  };
  return new Agent({ ...opts.agent, connect });
}

/** The policy's refusal behind an undici error, if that is what it was. */
export function refusalOf(err: unknown): RefusedAddress | undefined {
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++)
    if (e instanceof RefusedAddress) return e;
  return undefined;
}

/** How long a check before connecting waits for DNS; past it the name is let through (each connection checks again). */
const CHECK_DNS_MS = 2_000;

/**
 * Whether a URL's host is one the policy refuses, decided before any connection: an address literal
 * in any spelling the URL parser accepts (`127.1`, `0x7f000001`, `[::ffff:127.0.0.1]`), `localhost`
 * and its subdomains, or a name DNS answers with a private address. A name DNS cannot answer is
 * not refused here: every connection made to it is checked again.
 */
export async function refusedHost(url: string, policy: OutboundPolicy): Promise<string | undefined> {
  if (!policy.publicOnly) return undefined;
  let host: string;
  try {
    host = new URL(url).hostname
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
      .toLowerCase();
  } catch {
    return undefined; // not a URL: the schema says so
  }
  if (isIP(host)) return refusesAddress(policy, host) ? host : undefined;
  if (host === 'localhost' || host.endsWith('.localhost')) return policy.loopback ? undefined : host;
  const answers = await new Promise<LookupAddress[]>((resolve) => {
    const timer = setTimeout(() => resolve([]), CHECK_DNS_MS);
    dnsLookup()(host, { all: true }, (err, list) => {
      clearTimeout(timer);
      resolve(err ? [] : list);
    });
  });
  return answers.some((a) => refusesAddress(policy, a.address)) ? host : undefined;
}

/** Whether a server listening on `host` is reachable from this machine only (a loopback address or `localhost`). */
export function listensOnLoopbackOnly(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || isLoopbackAddress(h);
}
