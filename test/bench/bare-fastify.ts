/**
 * The benchmark's anchor: a bare Fastify app that answers fixed bytes, with none of the API's
 * work (no key check, no database, no Redis, no rate limit, no logging). Run as its own process
 * by test/bench/run.ts, like the server, so both are measured from outside the same way; the
 * ratio of the two is what the API's work costs.
 *
 * Environment: BARE_PORT, and BARE_ROUTES, a JSON object `{ "/path": { "status": 200 | 304,
 * "file"?: body file, "headers": {...} } }`.
 */
import Fastify from 'fastify';
import { readFile } from 'node:fs/promises';

interface BareRoute {
  status: number;
  file?: string;
  headers: Record<string, string>;
}

const routes = JSON.parse(process.env.BARE_ROUTES ?? '{}') as Record<string, BareRoute>;
const app = Fastify({ logger: false });
for (const [path, route] of Object.entries(routes)) {
  const body = route.file ? await readFile(route.file) : undefined;
  app.get(path, async (_request, reply) => reply.code(route.status).headers(route.headers).send(body));
}
app.get('/ready', async () => 'ok');
await app.listen({ port: Number(process.env.BARE_PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
