import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { invalidRequest } from '../core/domain/errors.js';

/** Deepest nesting a JSON body may have; scenes are deep, but not thousands of levels. */
const MAX_JSON_DEPTH = 100;

/**
 * Finds nesting past MAX_JSON_DEPTH (overflows the scene serialiser) and NUL characters (refused by Postgres).
 * Iterative, so a hostile depth cannot overflow the check itself.
 */
function findJsonProblem(value: unknown): string | null {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return 'Text must not contain NUL (\\u0000) characters.';
      continue;
    }
    if (!current || typeof current !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) return `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`;
    if (Array.isArray(current)) {
      for (const item of current) stack.push([item, depth + 1]);
    } else {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes('\u0000')) return 'Keys must not contain NUL (\\u0000) characters.';
        stack.push([item, depth + 1]);
      }
    }
  }
  return null;
}

/**
 * Fastify's own JSON parser (prototype-poisoning protection included), plus: an empty body is
 * no body (clients send `Content-Type: application/json` on bodiless POSTs), and the checks above.
 */
export default fp(async function jsonBody(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  // Every body of this API is JSON (or multipart, on uploads): a text/plain body is 415, not a
  // string that fails the schema with a puzzling "body must be object".
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    parse(request, text, (error, value) => {
      if (error) return done(error, undefined);
      const problem = findJsonProblem(value);
      return problem ? done(invalidRequest(problem), undefined) : done(null, value);
    });
  });
});
