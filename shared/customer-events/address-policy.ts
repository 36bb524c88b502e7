/**
 * Which IP addresses a customer's webhook may reach (the SSRF policy of docs/CUSTOMER-WEBHOOKS.md).
 * Pure: the registration use case applies it to every address a host resolves to, and the
 * dispatcher applies it again to the address it is about to connect to (DNS may change between
 * the two, or answer differently on purpose).
 *
 * Only public unicast addresses are allowed; loopback only when the caller says so (the local
 * runtime, where receivers run on the developer's machine). Addresses that embed an IPv4 address
 * (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`) are judged by the IPv4 address they carry.
 */
import { isIPv4, isIPv6 } from 'node:net';

export type AddressCategory =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link-local'
  | 'unspecified'
  | 'shared'
  | 'multicast'
  | 'reserved'
  /** Not an IP address at all. */
  | 'invalid';

export interface AddressPolicyOptions {
  /** Loopback receivers (127/8, ::1): only in the local runtime. */
  allowLoopback: boolean;
}

type Ipv4Range = readonly [first: number, second: number, third: number, fourth: number, prefix: number, category: AddressCategory];

/** Checked in order; the first match decides. */
const ipv4Ranges: readonly Ipv4Range[] = [
  [0, 0, 0, 0, 8, 'unspecified'], // "this network"; 0.0.0.0 connects to the local host on Linux
  [10, 0, 0, 0, 8, 'private'],
  [100, 64, 0, 0, 10, 'shared'], // carrier-grade NAT
  [127, 0, 0, 0, 8, 'loopback'],
  [169, 254, 0, 0, 16, 'link-local'], // includes the instance metadata address 169.254.169.254
  [172, 16, 0, 0, 12, 'private'],
  [192, 0, 0, 0, 24, 'reserved'], // IETF protocol assignments
  [192, 0, 2, 0, 24, 'reserved'], // documentation
  [192, 88, 99, 0, 24, 'reserved'], // 6to4 relay anycast
  [192, 168, 0, 0, 16, 'private'],
  [198, 18, 0, 0, 15, 'reserved'], // benchmarking
  [198, 51, 100, 0, 24, 'reserved'],
  [203, 0, 113, 0, 24, 'reserved'],
  [224, 0, 0, 0, 4, 'multicast'],
  [240, 0, 0, 0, 4, 'reserved'], // includes the broadcast address 255.255.255.255
];

const ipv4Number = (octets: readonly number[]): number => ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;

function categoryOfIpv4(octets: readonly number[]): AddressCategory {
  const value = ipv4Number(octets);
  for (const [a, b, c, d, prefix, category] of ipv4Ranges) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === (ipv4Number([a, b, c, d]) & mask) >>> 0) return category;
  }
  return 'public';
}

/** Eight 16-bit groups of a valid IPv6 text (zone id dropped, embedded IPv4 tail expanded). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const octets = tail[1]!.split('.').map(Number);
    text = `${text.slice(0, tail.index)}${((octets[0]! << 8) | octets[1]!).toString(16)}:${((octets[2]! << 8) | octets[3]!).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const first = parse(head);
  if (rest === undefined) return first;
  const last = parse(rest);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

const embeddedIpv4 = (high: number, low: number): number[] => [high >> 8, high & 0xff, low >> 8, low & 0xff];

function categoryOfIpv6(groups: readonly number[]): AddressCategory {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroUpTo = (count: number) => groups.slice(0, count).every((group) => group === 0);
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && g7 === 1) return 'loopback';
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks).
  if (zeroUpTo(5) && g5 === 0xffff) return categoryOfIpv4(embeddedIpv4(g6, g7));
  if (zeroUpTo(6)) return categoryOfIpv4(embeddedIpv4(g6, g7));
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach the IPv4 address they carry.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return categoryOfIpv4(embeddedIpv4(g6, g7));
  if (g0 === 0x2002) return categoryOfIpv4(embeddedIpv4(g1, g2));
  if ((g0 & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return 'private'; // site-local fec0::/10 (deprecated)
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if (g0 === 0x2001 && g1 === 0x0db8) return 'reserved'; // documentation
  if (g0 === 0x2001 && g1 === 0) return 'reserved'; // Teredo 2001::/32: tunnels to an IPv4 host it hides
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return 'reserved'; // discard-only 100::/64
  // Global unicast is 2000::/3; everything else is unassigned or special.
  return (g0 & 0xe000) === 0x2000 ? 'public' : 'reserved';
}

/** Strips the brackets a URL puts around an IPv6 host (`[::1]`). */
export const unbracket = (host: string): string => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** Whether the text is an IP address (v4 dotted quad or v6, brackets allowed) rather than a host name. */
export const isIpAddress = (host: string): boolean => isIPv4(unbracket(host)) || isIPv6(unbracket(host));

export function classifyAddress(address: string): AddressCategory {
  const text = unbracket(address);
  if (isIPv4(text)) return categoryOfIpv4(text.split('.').map(Number));
  if (isIPv6(text)) return categoryOfIpv6(ipv6Groups(text));
  return 'invalid';
}

/** Why the address may not be reached, or undefined when it may. */
export function addressRefusal(address: string, options: AddressPolicyOptions): Exclude<AddressCategory, 'public'> | undefined {
  const category = classifyAddress(address);
  if (category === 'public') return undefined;
  if (category === 'loopback' && options.allowLoopback) return undefined;
  return category;
}

export const isAddressAllowed = (address: string, options: AddressPolicyOptions): boolean => addressRefusal(address, options) === undefined;

/** The dispatcher's check at connection time (after DNS, on every connection): the same policy as registration. */
export const isForbiddenAddress = (address: string, options: AddressPolicyOptions): boolean => !isAddressAllowed(address, options);
