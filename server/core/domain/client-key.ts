import ipaddr from 'ipaddr.js';

/**
 * The part of a client address that counts as one client for throttling: an IPv6 subscriber may
 * send from anywhere in its /64, so IPv6 is keyed by /64, IPv4 by address.
 */
export function clientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  // From the bytes, so a zone id (fe80::1%eth0) does not split one client in two.
  const network = [...address.toByteArray().slice(0, 8), 0, 0, 0, 0, 0, 0, 0, 0];
  return `${ipaddr.fromByteArray(network).toString()}/64`;
}
