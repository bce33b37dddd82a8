import { lookup as dnsLookup, promises as dns, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { withTimeout } from './deadline.js';

/**
 * SSRF guard for user-chosen hosts: only globally routable unicast addresses pass, and a name only if all its
 * addresses do. Connect to the returned address, never the name again: that defeats DNS rebinding.
 */

export type SsrfErrorCode = 'ssrf_blocked' | 'dns';

/**
 * Why a host was refused: `ssrf_blocked` (non-public address) or `dns` (unresolved). The message is safe to
 * show the user who configured the host; `address` and `range` are for logs.
 */
export class SsrfError extends Error {
  override name = 'SsrfError';
  constructor(
    readonly code: SsrfErrorCode,
    readonly host: string,
    message: string,
    readonly address?: string,
    /** ipaddr.js's name of the range the refused address lies in (`loopback`, `private`, ...). */
    readonly range?: string,
  ) {
    super(message);
  }
}

export interface ResolvedAddress {
  /** The address to connect to. */
  address: string;
  family: 4 | 6;
}

/** Resolves a name to all its addresses, as `dns.promises.lookup(host, { all: true })` does. */
export type LookupAll = (host: string) => Promise<Array<{ address: string; family: number }>>;

export interface ResolvePublicAddressOptions {
  /** Let private, loopback and other non-public addresses through (development and tests only; default false). */
  allowPrivate?: boolean;
  /** How long resolving may take before it counts as a `dns` failure (default 5000 ms). */
  timeoutMs?: number;
  /** The resolver (default: the system's, through `dns.promises.lookup`); tests pass their own. */
  lookup?: LookupAll;
}

const RESOLVE_PUBLIC_ADDRESS_DEFAULTS = { allowPrivate: false, timeoutMs: 5000 } as const;

const systemLookup: LookupAll = (host) => dns.lookup(host, { all: true, verbatim: true });

/** 2000::/3, the only IPv6 block assigned as globally routable unicast. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * The ipaddr.js range name of an IP address (`unicast` when public), IPv4-mapped IPv6 judged as IPv4;
 * null when it is not an IP address.
 */
export function addressRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return null;
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range === 'unicast' && ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST_V6)) return 'reserved';
  return range;
}

/** True for a globally routable unicast IP address (see the file comment for what is refused). */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
}

/** Throws `ssrf_blocked` unless `address` is public (or `allowPrivate`); for connect-time hooks such as `lookup`. */
function assertPublicAddress(host: string, address: string, allowPrivate = false): void {
  if (allowPrivate) return;
  const range = addressRange(address);
  if (range !== 'unicast') {
    throw new SsrfError(
      'ssrf_blocked',
      host,
      `${host} is not allowed: it resolves to a private or reserved address.`,
      address,
      range ?? 'invalid',
    );
  }
}

/**
 * Resolves `host` and returns the address to connect to. Rejects with `ssrf_blocked` when any address is
 * not public (unless `allowPrivate`), `dns` when the name does not resolve in time.
 */
export async function resolvePublicAddress(
  host: string,
  options: ResolvePublicAddressOptions = {},
): Promise<ResolvedAddress> {
  const { allowPrivate, timeoutMs, lookup = systemLookup } = { ...RESOLVE_PUBLIC_ADDRESS_DEFAULTS, ...options };
  const name = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (name === '') throw new SsrfError('dns', host, 'No host name is set.');

  let addresses: Array<{ address: string; family: number }>;
  if (ipaddr.isValid(name)) {
    // A literal is its own answer, in canonical form (ipaddr.js also reads `127.1` or `0x7f000001`,
    // which a connect would otherwise hand to the resolver again).
    const ip = ipaddr.parse(name);
    addresses = [{ address: ip.toString(), family: ip.kind() === 'ipv6' ? 6 : 4 }];
  } else {
    try {
      addresses = await withTimeout(
        () => lookup(name),
        timeoutMs,
        `resolving ${host} took longer than ${timeoutMs} ms`,
      );
    } catch {
      throw new SsrfError('dns', host, `${host} could not be resolved.`);
    }
  }
  if (addresses.length === 0) throw new SsrfError('dns', host, `${host} could not be resolved.`);
  // Every address, not only the one we will use: the resolver's order can change between calls.
  for (const { address } of addresses) assertPublicAddress(host, address, allowPrivate);
  const [first] = addresses;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net/tls connect that refuses names resolving to any non-public address. */
export function guardedLookup(hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) {
  dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
    if (error) return callback(error, []);
    try {
      for (const { address } of addresses) assertPublicAddress(hostname, address);
    } catch (refused) {
      return callback(refused as NodeJS.ErrnoException, []);
    }
    // Node 20 asks for all addresses (autoSelectFamily); older callers for one.
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    return callback(null, first.address, first.family);
  });
}
