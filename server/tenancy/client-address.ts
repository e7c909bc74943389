import ipaddr from 'ipaddr.js';

/** How much of an IPv6 address one client holds: a /64 is what a home or a host is given. */
const IPV6_CLIENT_PREFIX = 64;

/**
 * The client a guest's request counts as, from its address (`ctx.ip`, which honours
 * `trustProxy`): an IPv4 address as is (also when written IPv4-mapped, `::ffff:203.0.113.7`), an
 * IPv6 address by its /64, since one client may take any address of its /64 at will. Anything
 * else a trusted proxy sent is its own client, as written.
 */
export function clientAddress(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toNormalizedString()}/${IPV6_CLIENT_PREFIX}`).toString()}/${IPV6_CLIENT_PREFIX}`;
}
