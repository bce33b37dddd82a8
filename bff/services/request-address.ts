import proxyAddr from '@fastify/proxy-addr';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { ownOrigin } from './own-origin.js';

/** The last value of a header a chain of proxies appended to (`a, b` -> `b`), as Fastify reads it. */
const lastEntry = (value: string) => value.slice(value.lastIndexOf(',') + 1).trim();

/**
 * A raw request's client address and origin, read with the same @fastify/proxy-addr rules as Fastify under
 * `TRUST_PROXY`: the cache's hot path reads them from the raw request and must see it as Fastify does.
 */
export function createRequestAddressing(trustProxy: readonly string[]) {
  const trust = trustProxy.length > 0 ? proxyAddr.compile([...trustProxy]) : undefined;
  const peerTrusted = (req: IncomingMessage) =>
    trust !== undefined && req.socket?.remoteAddress !== undefined && trust(req.socket.remoteAddress, 0);
  const forwarded = (req: IncomingMessage, name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' && value !== '' && peerTrusted(req) ? lastEntry(value) : undefined;
  };
  return {
    /** The client's address (request.ip). */
    clientIp(req: IncomingMessage): string | undefined {
      return trust ? proxyAddr(req, trust) : req.socket?.remoteAddress;
    },
    /** The origin the client reached this BFF at, or null when the Host is not a plain host. */
    ownOrigin(req: IncomingMessage): string | null {
      const protocol =
        forwarded(req, 'x-forwarded-proto') ?? ((req.socket as TLSSocket | undefined)?.encrypted ? 'https' : 'http');
      const host = forwarded(req, 'x-forwarded-host') ?? req.headers.host;
      return host !== undefined && (protocol === 'http' || protocol === 'https') ? ownOrigin(protocol, host) : null;
    },
  };
}

export type RequestAddressing = ReturnType<typeof createRequestAddressing>;
