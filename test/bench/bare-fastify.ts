/**
 * The benchmark's anchor: bare Fastify answering fixed bytes, run as its own process and measured like the server, so
 * the ratio is what the API's work costs. Env: BARE_PORT and BARE_ROUTES (`{ "/path": { status, file?, headers } }`).
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
