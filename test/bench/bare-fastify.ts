/**
 * The benchmark's anchor: bare Fastify answering fixed bytes, run as its own process and measured like the server, so
 * the ratio is what the API's work costs. Env: BARE_PORT and BARE_ROUTES
 * (`{ "/path": { status, file?, headers, notModified? } }`): a route with `notModified` headers answers 304 with them
 * when If-None-Match names its ETag, as any Fastify app that honours conditional GETs would.
 */
import Fastify from 'fastify';
import { readFile } from 'node:fs/promises';

interface BareRoute {
  status: number;
  file?: string;
  headers: Record<string, string>;
  notModified?: Record<string, string>;
}

const routes = JSON.parse(process.env.BARE_ROUTES ?? '{}') as Record<string, BareRoute>;
const app = Fastify({ logger: false });
for (const [path, { status, file, headers, notModified }] of Object.entries(routes)) {
  const body = file ? await readFile(file) : undefined;
  app.get(path, async (request, reply) =>
    notModified && request.headers['if-none-match'] === headers.etag
      ? reply.code(304).headers(notModified).send()
      : reply.code(status).headers(headers).send(body),
  );
}
app.get('/ready', async () => 'ok');
await app.listen({ port: Number(process.env.BARE_PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
