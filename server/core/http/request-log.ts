import type { FastifyRequest, FastifyServerOptions } from 'fastify';

const MASK = '***';
/** Query parameters that are credentials: a signed file URL's `sig`, an OAuth callback's `code` and `state`. */
const SECRET_PARAMS = ['sig', 'code', 'state'];

/**
 * A request URL fit for the logs: the share token and SECRET_PARAMS are masked, since a signed file URL
 * works for a year. Keys are compared decoded, as the query parser reads them.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(/^(\/share\/[^/]*\/)[^/]+/, `$1${MASK}`);
  if (queryAt === -1) return path;
  const query = url.slice(queryAt + 1);
  const params = new URLSearchParams(query);
  if (!SECRET_PARAMS.some((key) => params.has(key))) return `${path}?${query}`;
  const masked = [...params].map(([key, value]): [string, string] => [key, SECRET_PARAMS.includes(key) ? MASK : value]);
  return `${path}?${new URLSearchParams(masked).toString()}`;
}

/** Fastify's request log fields, with the URL redacted. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    hostname: request.hostname,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The logger options with the redacting request serializer, whatever the caller passed (server and BFF). */
export function withRedactedUrls(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === false) return false;
  const options = typeof logger === 'object' ? logger : {};
  // `source`: the upstream URL @fastify/reply-from logs for each proxied request (the BFF).
  const source = (value: unknown) => (typeof value === 'string' ? redactUrl(value) : value);
  return { ...options, serializers: { ...options.serializers, req: serializeRequest, source } };
}
