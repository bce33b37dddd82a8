import { STATUS_CODES } from 'node:http';
import type { FastifyReply, FastifyServerOptions } from 'fastify';
import { API_VERSION } from './api-version.js';
import { publicCorsHeaders } from './public-cors.js';

type FrameworkErrorOptions = Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler' | 'routerOptions'>;

const CLIENT_ERRORS: Record<string, { status: number; error: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, error: 'request_timeout', message: 'The request took too long to arrive.' },
  HPE_HEADER_OVERFLOW: { status: 431, error: 'invalid_request', message: 'The request headers are too large.' },
};

/**
 * Errors Fastify raises before a route or the error handler sees the request (a malformed URL, a body that
 * never arrives) still leave as the API's error body with `X-Api-Version`. Shared with the BFF.
 */
export function frameworkErrorOptions(): FrameworkErrorOptions {
  return {
    // Fastify's default (100) would answer a long, wrong share token with a 400 before the public
    // key check and the one 404; ids and tokens are checked by the routes themselves.
    routerOptions: { maxParamLength: 1024 },
    frameworkErrors: (_error, request, reply: FastifyReply) => {
      // A page embedding a share must be able to read this answer too.
      if (request.url.startsWith('/share/')) publicCorsHeaders(request, reply);
      // Not Fastify's message: it quotes the whole URL, share token included.
      reply
        .code(400)
        .header('x-api-version', API_VERSION)
        .send({ success: false, error: 'invalid_request', message: 'The URL is malformed.' });
    },
    clientErrorHandler: (error, socket) => {
      // Nobody is left to read an answer, or an answer is already on its way on this connection
      // (as Node's own handler checks): the connection just ends.
      const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
      if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent)
        return socket.destroy();
      const known = CLIENT_ERRORS[(error as NodeJS.ErrnoException).code ?? ''] ?? {
        status: 400,
        error: 'invalid_request',
        message: 'The request is malformed.',
      };
      const body = JSON.stringify({ success: false, error: known.error, message: known.message });
      socket.end(
        `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Api-Version: ${API_VERSION}\r\n` +
          'Connection: close\r\n\r\n' +
          body,
      );
      // The server allows half-open sockets: without this the connection would linger.
      socket.destroySoon();
    },
  };
}
