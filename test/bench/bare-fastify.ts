/**
 * The benchmark's anchor: bare Fastify answering fixed bytes in its own process, measured like the server, so the
 * ratio is what the API's work costs. Env: BARE_PORT, BARE_ROUTES (a JSON object of path → BareRoute).
 */
import Fastify from 'fastify';
import { readFile } from 'node:fs/promises';

interface BareRoute {
  status: number;
  file?: string;
  headers: Record<string, string>;
  /** A 304's headers when If-None-Match names the ETag, as any Fastify app honouring conditional GETs answers. */
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
