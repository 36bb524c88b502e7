/**
 * Which IP addresses a webhook delivery may connect to. Customers choose the URL, so without this
 * a URL (or a DNS name that later resolves) could make the platform call its own network: the
 * instance metadata service (169.254.169.254, fd00:ec2::254), private ranges, loopback. Applied to
 * the address actually connected to, after DNS, on every connection (shared/adapters/http/safe-http-client.ts).
 *
 * Anything that is not a plain public unicast address is forbidden, including what could be one in
 * disguise: IPv4-mapped / -compatible / NAT64 / 6to4 IPv6 forms are judged by the IPv4 inside them.
 */
import { isIP } from 'node:net';

export interface AddressPolicyOptions {
  /** Local mode only: receivers on this machine (127.0.0.0/8, ::1). */
  allowLoopback: boolean;
}

type Range = readonly [first: number, prefixLength: number];

const ipv4 = (a: number, b: number, c: number, d: number): number => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

const LOOPBACK_V4: Range = [ipv4(127, 0, 0, 0), 8];
/** IANA special-purpose IPv4 registry, plus multicast and the reserved class E. */
const FORBIDDEN_V4: readonly Range[] = [
  [ipv4(0, 0, 0, 0), 8], // "this network"
  [ipv4(10, 0, 0, 0), 8], // private
  [ipv4(100, 64, 0, 0), 10], // carrier-grade NAT
  [ipv4(169, 254, 0, 0), 16], // link-local, instance metadata
  [ipv4(172, 16, 0, 0), 12], // private
  [ipv4(192, 0, 0, 0), 24], // IETF protocol assignments
  [ipv4(192, 0, 2, 0), 24], // documentation
  [ipv4(192, 88, 99, 0), 24], // 6to4 relay anycast
  [ipv4(192, 168, 0, 0), 16], // private
  [ipv4(198, 18, 0, 0), 15], // benchmarking
  [ipv4(198, 51, 100, 0), 24], // documentation
  [ipv4(203, 0, 113, 0), 24], // documentation
  [ipv4(224, 0, 0, 0), 4], // multicast
  [ipv4(240, 0, 0, 0), 4], // reserved, broadcast
];

const inV4Range = (address: number, [first, prefixLength]: Range): boolean =>
  prefixLength === 0 || (address >>> (32 - prefixLength)) === (first >>> (32 - prefixLength));

function parseIpv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)) return undefined;
  const [a, b, c, d] = parts.map(Number) as [number, number, number, number];
  return ipv4(a, b, c, d);
}

function isForbiddenIpv4(address: number, options: AddressPolicyOptions): boolean {
  if (inV4Range(address, LOOPBACK_V4)) return !options.allowLoopback;
  return FORBIDDEN_V4.some((range) => inV4Range(address, range));
}

/** Eight 16-bit groups, or undefined when the text is not an IPv6 address. */
function parseIpv6(text: string): number[] | undefined {
  let rest = text.replace(/%.*$/, ''); // a zone id names an interface, not another address
  const groups: number[] = [];
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(rest);
  let tail: number[] = [];
  if (dotted) {
    const v4 = parseIpv4(dotted[1]!);
    if (v4 === undefined) return undefined;
    tail = [v4 >>> 16, v4 & 0xffff];
    rest = rest.slice(0, -dotted[1]!.length);
    if (rest.endsWith(':') && !rest.endsWith('::')) rest = rest.slice(0, -1);
  }
  const halves = rest.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] | undefined => {
    if (part === '') return [];
    const values = part.split(':').map((group) => (/^[0-9a-fA-F]{1,4}$/.test(group) ? parseInt(group, 16) : NaN));
    return values.some(Number.isNaN) ? undefined : values;
  };
  const head = parse(halves[0]!);
  const after = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !after) return undefined;
  const known = head.length + after.length + tail.length;
  if (halves.length === 2) {
    if (known > 7) return undefined;
    groups.push(...head, ...new Array<number>(8 - known).fill(0), ...after, ...tail);
  } else {
    if (known !== 8) return undefined;
    groups.push(...head, ...tail);
  }
  return groups;
}

const v4Of = (high: number, low: number): number => ((high << 16) | low) >>> 0;

function isForbiddenIpv6(groups: number[], options: AddressPolicyOptions): boolean {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const firstSixZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  if (firstSixZero && g6 === 0 && g7 === 1) return !options.allowLoopback; // ::1
  if (firstSixZero) return true; // :: and the deprecated IPv4-compatible ::a.b.c.d
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return isForbiddenIpv4(v4Of(g6, g7), options); // ::ffff:a.b.c.d
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return true; // ::ffff:0:a.b.c.d (SIIT)
  if (g0 === 0x64 && g1 === 0xff9b) return g2 !== 0 || g3 !== 0 || g4 !== 0 || g5 !== 0 || isForbiddenIpv4(v4Of(g6, g7), options); // NAT64
  if (g0 === 0x2002) return isForbiddenIpv4(v4Of(g1, g2), options); // 6to4 carries an IPv4 address
  if (g0 === 0x2001 && g1 < 0x200) return true; // Teredo, ORCHID, benchmarking and other IETF assignments
  if (g0 === 0x2001 && g1 === 0xdb8) return true; // documentation
  if ((g0 & 0xfe00) === 0xfc00) return true; // unique local (includes AWS's fd00:ec2::254)
  if ((g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0) return true; // link-local, site-local
  if ((g0 & 0xff00) === 0xff00) return true; // multicast
  if ((g0 & 0xe000) !== 0x2000) return true; // outside global unicast 2000::/3
  return false;
}

/** True when a delivery must not connect to `ip`. Anything that is not an IP address is forbidden. */
export function isForbiddenAddress(ip: string, options: AddressPolicyOptions): boolean {
  const address = ip.trim().replace(/^\[(.*)\]$/, '$1');
  const version = isIP(address.replace(/%.*$/, ''));
  if (version === 4) return isForbiddenIpv4(parseIpv4(address)!, options);
  if (version === 6) {
    const groups = parseIpv6(address);
    return groups === undefined || isForbiddenIpv6(groups, options);
  }
  return true;
}
