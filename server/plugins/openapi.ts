import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { API_VERSION } from '../routes/version.js';

/** The OpenAPI description, generated from the same schemas that validate requests. */
export default fp(async function openapi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'config-share API',
        version: API_VERSION,
        description:
          'Owner API (projects, assets, share settings, requests) and the public share read and submit. ' +
          'Errors are `{ success: false, error, message }`. See docs/api.md for the decisions behind each route.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          publicKey: { type: 'apiKey', in: 'header', name: 'apikey' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
