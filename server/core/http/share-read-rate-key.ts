import { clientKey } from '../domain/client-key.js';

/**
 * The Redis key of a client's public read budget, as the server's limiter writes it, so that the
 * BFF spends the very same counter (contract section 5: one budget whether the server or a BFF
 * cache answers).
 *
 * The server's limiter is `app.rateLimit({ keyGenerator: () => 'share-read:<client>' })` under
 * the namespace `<prefix>:rl:`. @fastify/rate-limit 11.2 makes such a limiter's store a child
 * store keyed by route method and URL, which `app.rateLimit()` leaves undefined
 * (fastify/fastify-rate-limit#463): hence the literal `undefinedundefined-` between the two.
 * test/bff/read-budget.test.ts fails if the library ever changes that.
 */
export function shareReadRateKey(prefix: string, ip: string): string {
  return `${prefix}:rl:undefinedundefined-share-read:${clientKey(ip)}`;
}
