// Connections the server opens to a host a user named (push services, webhooks): a guard against
// server-side request forgery. A name is resolved once, every address it resolves to must be a public
// one, and the connection goes to those very addresses (the checked lookup is the socket's own), so a DNS
// answer cannot change between the check and the connection. Hosts the operator lists are trusted as
// listed (a push service on the LAN, the tests' local one) and skip the address check.
import dns from 'node:dns';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';

/** A connection refused because of where it would have gone. */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
  readonly code = 'EOUTBOUNDREFUSED';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resuelve a ${address}, una dirección que no es pública`);
  }
}

// IPv4 blocks that are not public unicast: "this network" (0.0.0.0 connects to the box itself on
// Linux), RFC 1918, carrier-grade NAT (RFC 6598), loopback, link-local (cloud metadata at
// 169.254.169.254), multicast, reserved and broadcast.
const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const v4Number = (ip: string): number => ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);

function isPublicV4(ip: string): boolean {
  const n = v4Number(ip);
  return !V4_BLOCKED.some(
    ([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(v4Number(base) / 2 ** (32 - bits)),
  );
}

/** The 16 bytes of a valid IPv6 address (with `::` and a dotted IPv4 tail). */
function v6Bytes(ip: string): number[] {
  let text = ip;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4Number(dotted[1]);
    tail.push((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
    text = `${text.slice(0, dotted.index)}0:0`;
  }
  const [head, rest] = text.split('::');
  const groups = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = groups(rest);
  const all =
    rest === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = all.flatMap((g) => [g >> 8, g & 255]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

const v4Of = (b: number[], at: number) => b.slice(at, at + 4).join('.');

function isPublicV6(ip: string): boolean {
  const b = v6Bytes(ip.replace(/%.*$/, '')); // a zone (fe80::1%eth0) names an interface, not an address
  const zeros = (n: number) => b.slice(0, n).every((x) => x === 0);
  // IPv4 inside IPv6 is judged as that IPv4: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d, which also
  // covers :: and ::1), NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
  if (zeros(10) && b[10] === 0xff && b[11] === 0xff) return isPublicV4(v4Of(b, 12));
  if (zeros(12)) return isPublicV4(v4Of(b, 12));
  const nat64 = [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];
  if (nat64.every((x, i) => b[i] === x)) return isPublicV4(v4Of(b, 12));
  if (b[0] === 0x20 && b[1] === 0x02) return isPublicV4(v4Of(b, 2));
  if ((b[0] & 0xfe) === 0xfc) return false; // unique local fc00::/7
  if (b[0] === 0xfe && (b[1] & 0x80) === 0x80) return false; // link-local fe80::/10, site-local fec0::/10
  if (b[0] === 0xff) return false; // multicast
  return true;
}

/**
 * Whether an IP address (v4, or v6 with its IPv4-mapped forms) is a public unicast one: not loopback,
 * private (RFC 1918, fc00::/7, 100.64/10), link-local (169.254/16, fe80::/10), unspecified (0.0.0.0,
 * ::), multicast or reserved. Anything that is not an IP address is not public.
 */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.replace(/^\[(.*)\]$/, '$1');
  const family = net.isIP(bare.replace(/%.*$/, ''));
  if (family === 4) return isPublicV4(bare);
  if (family === 6) return isPublicV6(bare);
  return false;
}

/** Every address of a name (the system resolver, as a socket would use it). */
export type Resolve = (hostname: string) => Promise<dns.LookupAddress[]>;
const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface OutboundOptions {
  /** Hosts connected to as they resolve, without the address check (the operator listed them). */
  trusted?: (host: string) => boolean;
  /** The resolver; tests replace it. */
  resolve?: Resolve;
}

const bareHost = (host: string) => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/**
 * A socket's `lookup` that resolves a name and refuses (an OutboundRefusedError, no connection) when
 * any of its addresses is not public, unless the host is trusted.
 */
export function checkedLookup({
  trusted = () => false,
  resolve = systemResolve,
}: OutboundOptions = {}): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const addresses = wanted ? found.filter((a) => a.family === wanted) : found;
        if (!trusted(bareHost(hostname))) {
          // One private answer among public ones is refused too: a rebinding name would be tried in turn.
          const bad = addresses.find((a) => !isPublicAddress(a.address));
          if (bad) return callback(new OutboundRefusedError(hostname, bad.address), '', 0);
        }
        if (addresses.length === 0)
          return callback(
            Object.assign(new Error(`${hostname}: sin direcciones`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/**
 * An https.Agent whose connections go only to public addresses (or trusted hosts): names through the
 * checked lookup; an address written in the URL (which no lookup sees) is checked here.
 */
export function outboundAgent(options: OutboundOptions = {}): https.Agent {
  const trusted = options.trusted ?? (() => false);
  class CheckedAgent extends https.Agent {
    override createConnection(
      opts: https.RequestOptions,
      callback?: (err: Error | null, stream: Duplex) => void,
    ): Duplex | null | undefined {
      const host = bareHost(String(opts.host ?? opts.hostname ?? ''));
      if (net.isIP(host) && !trusted(host) && !isPublicAddress(host)) {
        const err = new OutboundRefusedError(host, host);
        if (!callback) throw err;
        process.nextTick(() => callback(err, undefined as unknown as Duplex));
        return undefined;
      }
      return super.createConnection(opts, callback);
    }
  }
  return new CheckedAgent({ lookup: checkedLookup(options) });
}

// ---- webhooks (CONTRACT §21 "Targets") ---------------------------------------------------------------
// A webhook may go to the LAN (a WMS beside the tower), so only what is never another system is refused.

/** Never a webhook's target: the box itself, the link, nobody in particular, everybody at once. */
type RefusedKind = 'loopback' | 'link-local' | 'unspecified' | 'multicast' | 'broadcast';

function refusedV4(ip: string): RefusedKind | null {
  const n = v4Number(ip);
  const first = n >>> 24;
  if (first === 127) return 'loopback';
  if (first === 0) return 'unspecified';
  if (n >>> 16 === (169 << 8) + 254) return 'link-local';
  if (first >= 224 && first < 240) return 'multicast';
  if (ip === '255.255.255.255') return 'broadcast';
  return null;
}

function refusedV6(ip: string): RefusedKind | null {
  const b = v6Bytes(ip.replace(/%.*$/, ''));
  if (b.every((x) => x === 0)) return 'unspecified';
  if (b.slice(0, 15).every((x) => x === 0) && b[15] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) forms are judged as their IPv4.
  if (
    b.slice(0, 10).every((x) => x === 0) &&
    ((b[10] === 0xff && b[11] === 0xff) || b.slice(10, 12).every((x) => x === 0))
  )
    return refusedV4(v4Of(b, 12));
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return 'link-local';
  if (b[0] === 0xff) return 'multicast';
  return null;
}

/**
 * Whether a webhook may be sent to this IP address: not loopback (unless `allowLoopback`: the tests'
 * receiver), link-local, unspecified, multicast or broadcast, nor their IPv4-mapped forms. Not an IP
 * address: refused.
 */
export function isWebhookAddress(ip: string, allowLoopback: boolean): boolean {
  const bare = ip.replace(/^\[(.*)\]$/, '$1');
  const family = net.isIP(bare.replace(/%.*$/, ''));
  if (!family) return false;
  const refused = family === 4 ? refusedV4(bare) : refusedV6(bare);
  return refused === null || (refused === 'loopback' && allowLoopback);
}
