import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/** RFC 4291 §2.4: only 2000::/3 is global unicast; the rest of the space is special or unassigned. */
const globalUnicast = ipaddr.parseCIDR('2000::/3');

/** Whether a webhook may connect to this address: a public unicast address, nothing else. */
export function isPublicAddress(address: string): boolean {
  return toAddressRange(address) === 'public';
}

/**
 * `public`, or the name of the special-purpose range that keeps webhooks away from the address
 * (ipaddr.js's names: `loopback`, `private`, `linkLocal`, `uniqueLocal`, `carrierGradeNat`, …;
 * `invalid` for text that is not an address). An allow-list: whatever is not plainly public is
 * refused, so a range ipaddr.js learns later is refused too.
 */
export function toAddressRange(address: string): string {
  if (isIPv4(address)) return rangeOfIPv4(ipaddr.IPv4.parse(address));
  if (isIPv6(address)) return rangeOfIPv6(address);
  return 'invalid';
}

function rangeOfIPv4(address: ipaddr.IPv4): string {
  const range = address.range();
  return range === 'unicast' ? 'public' : range;
}

function rangeOfIPv6(text: string): string {
  const address = parseIPv6(text);
  if (!address) return 'invalid';
  const embedded = toEmbeddedIPv4(address);
  if (embedded) return rangeOfIPv4(embedded);
  const range = address.range();
  if (range !== 'unicast') return range;
  return address.match(globalUnicast) ? 'public' : 'reserved';
}

/**
 * ipaddr.js reads `::a.b.c.d` (IPv4-compatible, deprecated) as IPv4-mapped, and glibc writes
 * such addresses in that form; the WHATWG URL parser rewrites any IPv6 text to hex groups, so the
 * address is judged by its real bits. A zone id (`fe80::1%eth0`) does not parse: refused.
 */
function parseIPv6(text: string): ipaddr.IPv6 | undefined {
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${text}]/`).hostname.slice(1, -1));
  } catch {
    return undefined;
  }
}

/**
 * The IPv4 address that a translation prefix carries, where the packet really ends up: security,
 * `::ffff:127.0.0.1` or `64:ff9b::a00:1` must be judged as 127.0.0.1 and 10.0.0.1.
 */
function toEmbeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const [p0, p1, p2, p3, p4, p5, p6, p7] = address.parts;
  switch (address.range()) {
    case 'ipv4Mapped': // ::ffff:0:0/96
    case 'rfc6145': // ::ffff:0:0:0/96 (SIIT)
      return fromGroups(p6, p7);
    case 'rfc6052': {
      // 64:ff9b::/96, the NAT64 well-known prefix; 64:ff9b:1::/48 (local use) stays refused.
      const wellKnown = p0 === 0x64 && p1 === 0xff9b && !p2 && !p3 && !p4 && !p5;
      return wellKnown ? fromGroups(p6, p7) : undefined;
    }
    case '6to4': // 2002:AABB:CCDD::/48 routes to AA.BB.CC.DD
      return fromGroups(p1, p2);
    default:
      return undefined;
  }
}

function fromGroups(high = 0, low = 0): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}
