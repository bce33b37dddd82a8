/** The API's error body (docs/api.md, Wire conventions), for the answers the BFF gives without the error handler. */
export const errorBody = (error: string, message: string) => ({ success: false as const, error, message });

/** The BFF's 503 when the server cannot be reached: the body and Retry-After of the server's own 503. */
export function sendUpstreamUnavailable<R extends Replying>(reply: R): R {
  const retryAfter = 5;
  reply
    .code(503)
    .header('retry-after', String(retryAfter))
    .send({ ...errorBody('unavailable', 'The API is not reachable right now.'), retryAfter });
  return reply;
}

/** What of a Fastify reply it needs (any of its server type parameters). */
interface Replying {
  code(statusCode: number): Replying;
  header(name: string, value: string): Replying;
  send(payload: unknown): unknown;
}
