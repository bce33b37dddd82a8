import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { QUEUES } from '../core/jobs/queues.js';

/** Where the operator's queue view lives on the server. */
export const QUEUE_DASHBOARD_PATH = '/admin/queues';

const REALM = 'config-share queues';

/** SHA-256 first, so the comparison takes the same time whatever the lengths. */
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** The password of an `Authorization: Basic` header (any user name), if there is one. */
function basicPassword(header: string | undefined): string | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : decoded.slice(colon + 1);
}

/**
 * Bull Board at `/admin/queues` when OPERATOR_SECRET is set, behind it (HTTP basic auth password, compared in constant
 * time); unset, the path is an ordinary 404. A page for people, so not in the OpenAPI description.
 */
export default fp(
  async function queueDashboard(app: FastifyInstance) {
    const { config } = app.deps;
    if (!config.operatorSecret) return;
    const expected = digest(config.operatorSecret);
    // Loaded only when mounted: BullMQ, Bull Board and its UI cost every server's start-up otherwise.
    const [{ Queue }, { createBullBoard }, { BullMQAdapter }, { FastifyAdapter }] = await Promise.all([
      import('bullmq'),
      import('@bull-board/api'),
      import('@bull-board/api/bullMQAdapter'),
      import('@bull-board/fastify'),
    ]);

    // Read-mostly producers on the same Redis and prefix as the worker's queues.
    const connection = { url: config.redisUrl, maxRetriesPerRequest: null } as const;
    const queues = Object.values(QUEUES).map((name) => {
      const queue = new Queue(name, { connection, prefix: config.queuePrefix });
      queue.on('error', () => {});
      return queue;
    });
    app.addHook('onClose', async () => {
      await Promise.all(queues.map((queue) => queue.close()));
    });

    const serverAdapter = new FastifyAdapter();
    serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH);
    createBullBoard({
      queues: queues.map((queue) => new BullMQAdapter(queue)),
      serverAdapter,
      options: { uiConfig: { boardTitle: 'config-share queues' } },
    });

    await app.register(async function protectedDashboard(scope) {
      scope.addHook('onRoute', (route) => {
        route.schema = { ...(route.schema ?? {}), hide: true };
      });
      scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        const password = basicPassword(request.headers.authorization);
        if (password !== null && timingSafeEqual(digest(password), expected)) return;
        return reply
          .code(401)
          .header('www-authenticate', `Basic realm="${REALM}", charset="UTF-8"`)
          .header('cache-control', 'no-store')
          .send({
            success: false,
            error: 'unauthorized',
            message: 'The queue view needs the operator secret (HTTP basic auth password).',
          });
      });
      await scope.register(serverAdapter.registerPlugin(), { prefix: QUEUE_DASHBOARD_PATH });
    });
  },
  { name: 'queue-dashboard' },
);
