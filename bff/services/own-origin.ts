const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:[0-9]{1,5})?$/i;

/**
 * The origin a request reached this BFF at (the load balancer's when `TRUST_PROXY` trusts it), where
 * the share page's links point; null when the Host header is not a plain host and port.
 */
export function ownOrigin(protocol: string, host: string | undefined): string | null {
  // Only a host name or address and a port: anything else (a path, user info, spaces) would change the URL's meaning.
  if (!host || !HOST.test(host) || (protocol !== 'http' && protocol !== 'https')) return null;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return null;
  }
}

/** The origin of a URL; null when it is not one (then it is kept, the server judges it). */
function originOfUrl(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/**
 * Drops Origin and Referer when they name this BFF: the share page's own element is not an embed
 * (docs/share-page.md). Origin decides when present, else Referer.
 */
export function withoutOwnOrigin(
  origin: string | undefined,
  referer: string | undefined,
  own: string | null,
): { origin?: string; referer?: string } {
  if (!own || (origin === undefined && referer === undefined)) return { origin, referer };
  // An Origin header is already an origin: most embeds skip the URL parser.
  const value = origin ?? referer!;
  return value === own || originOfUrl(value) === own ? {} : { origin, referer };
}
