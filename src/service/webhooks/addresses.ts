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
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address (`::ffff:10.0.0.1`). */
function embeddedIpv4(address: string): string | undefined {
  const dotted = /^(?:0*:)*(?:::)?(?:ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address.replace(/^\[|\]$/g, ''));
  if (dotted) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const high = parseInt(hex[1]!, 16);
    const low = parseInt(hex[2]!, 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return undefined;
}

/** True when `address` (an IP literal) lies in a range a webhook may not reach. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) return blocked.check(bare, 'ipv4');
  if (version === 6) {
    const inner = embeddedIpv4(bare);
    if (inner && isIP(inner) === 4) return blocked.check(inner, 'ipv4');
    // Every other IPv4-mapped form (::ffff:0:0/96) is refused outright.
    if (/^(0{0,4}:){0,5}:?ffff:/i.test(bare)) return true;
    return blocked.check(bare, 'ipv6');
  }
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
