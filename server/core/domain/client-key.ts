import ipaddr from 'ipaddr.js';

/**
 * The part of a client address that counts as one client for throttling. An IPv6 subscriber
 * usually holds a whole /64 and may send from any address in it, so IPv6 clients are keyed by
 * their /64; IPv4 (and IPv4-mapped IPv6) clients by their address. Anything unparsable is kept
 * as is.
 */
export function clientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  // From the bytes, so a zone id (fe80::1%eth0) does not split one client in two.
  const network = [...address.toByteArray().slice(0, 8), 0, 0, 0, 0, 0, 0, 0, 0];
  return `${ipaddr.fromByteArray(network).toString()}/64`;
}
