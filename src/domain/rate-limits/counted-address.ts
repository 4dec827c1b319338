import ipaddr from 'ipaddr.js';

/**
 * The part of a client address that rate limits count: an IPv4 address whole (an IPv4-mapped
 * IPv6 address too), an IPv6 address by its /64. security: one subscriber gets a whole /64
 * and may pick any address in it, so counting single IPv6 addresses would count nothing.
 */
export function toCountedAddress(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const network = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...network, 0, 0, 0, 0]).toRFC5952String()}/64`;
}
