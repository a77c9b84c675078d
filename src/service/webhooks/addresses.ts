import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may be delivered. A subscriber URL must never reach the service's own network:
 * loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved and the
 * unspecified ranges are refused, both when the URL is registered and at each delivery, after DNS
 * resolution (the connection then goes to the very address that was checked).
 */
const blocked = new BlockList();
for (const [network, prefix] of [
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
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  // IETF protocol assignments: Teredo (2001::/32, which carries an IPv4 address), benchmarking, ORCHID.
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 literal (a trailing dotted quad counts as two), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const quad = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (quad) {
    const bytes = quad[2]!.split('.').map(Number);
    if (bytes.some((b) => b > 255)) return undefined;
    text = `${quad[1]}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const part = (half: string) => (half ? half.split(':').map((group) => (/^[0-9a-f]{1,4}$/i.test(group) ? parseInt(group, 16) : NaN)) : []);
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.some(Number.isNaN) ? undefined : groups;
}

const dottedQuad = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * True when an IPv6 address reaches, or carries, an address a webhook may not reach. `::/8` holds
 * the IPv4-compatible (`::a.b.c.d`, which the URL parser writes as `::7f00:1`), IPv4-translated and
 * NAT64 forms: all refused, except IPv4-mapped addresses of public IPv4 hosts. Teredo and 6to4 are
 * refused whole; ISATAP interface ids are checked by the IPv4 address they carry.
 */
function isForbiddenIpv6(bare: string): boolean {
  const groups = ipv6Groups(bare);
  if (!groups) return true;
  if (groups[0]! < 0x100) {
    const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
    return !mapped || blocked.check(dottedQuad(groups[6]!, groups[7]!), 'ipv4');
  }
  if ((groups[4]! & 0xfdff) === 0 && groups[5] === 0x5efe && blocked.check(dottedQuad(groups[6]!, groups[7]!), 'ipv4')) return true;
  return blocked.check(bare, 'ipv6');
}

/** True when `address` (an IP literal) lies in a range a webhook may not reach. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) return blocked.check(bare, 'ipv4');
  if (version === 6) return isForbiddenIpv6(bare);
  return true;
}

export class ForbiddenAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForbiddenAddressError';
  }
}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a subscriber URL to the address to connect to. Every address the name resolves to must
 * be allowed (a name that also points inside is refused), unless private targets are allowed.
 */
export async function resolveTarget(rawUrl: string, allowPrivate: boolean, options: { requireResolution?: boolean } = {}): Promise<ResolvedTarget | undefined> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ForbiddenAddressError('is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ForbiddenAddressError('must be an http(s) URL');
  if (url.username || url.password) throw new ForbiddenAddressError('must not carry a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && /(^|\.)localhost\.?$/i.test(host)) throw new ForbiddenAddressError('must not point at a loopback, private, link-local or reserved address');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      addresses = [];
    }
  }
  if (addresses.length === 0) {
    // A name that does not resolve yet may be registered; a delivery needs an address.
    if (options.requireResolution === false) return undefined;
    throw new ForbiddenAddressError('names a host that does not resolve');
  }
  if (!allowPrivate && addresses.some((entry) => isForbiddenAddress(entry.address))) {
    throw new ForbiddenAddressError('must not point at a loopback, private, link-local or reserved address');
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
