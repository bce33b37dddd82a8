import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { shareRequestOf } from './share-request.js';
import { ShareParams, SharePasswordHeader, UnavailableBody } from '../../schemas/shares.js';
import { errors } from '../../schemas/common.js';
import { per } from '../../schemas/rate-text.js';
import {
  CONFIGURATION_BODY_LIMIT,
  ConfigurationBody,
  ConfigurationCreated,
  ConfigurationReply,
} from '../../core/wire/configurations.js';
import type { Scene } from '../../core/wire/configurator/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The scene the cart checks read, for the handler (set before the body is read). */
    cartScene?: Scene;
  }
}

/**
 * `POST /share/:projectId/:token/configurations` and `GET /configurations/:id` (docs/cart.md). The share and cart
 * checks run before the body is read, in the documented order; then the body.
 */
export default async function configurationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, services } = app.deps;

  app.post(
    '/share/:projectId/:token/configurations',
    {
      bodyLimit: CONFIGURATION_BODY_LIMIT,
      config: { rateLimit: { ...config.rateLimits.configurations, hook: 'onRequest' } },
      preParsing: async (request, reply) => {
        try {
          request.shareAccess = await services.publicShare.authorize(shareRequestOf(request));
          request.cartScene = await services.configurations.admit(request.shareAccess);
        } catch (error) {
          // As submit: a refused upload from anyone but the BFF closes the connection and costs no bandwidth.
          if ((request.ips?.length ?? 0) <= 1) reply.header('connection', 'close');
          throw error;
        }
      },
      schema: {
        tags: ['public share'],
        summary: 'Put a configuration in the cart: priced by the server, answered with a signed token (public).',
        description:
          'Same headers and share checks as the read, in the same order; then 403 cart_disabled when ' +
          "projectSettings.cart.enabled is not true, 503 cart_not_configured without the server's signing key, " +
          'then the body. The server resolves the options through the rules (unknown or unavailable ones take ' +
          'the defaults and are listed in `ignored`) and prices one unit against the current revision; a price ' +
          'sent by the browser is never read. 201 for a new configuration; 200 with the stored one (its first ' +
          'createdAt and picture, expiresAt moved on) when the same configuration exists. A fresh token each time. ' +
          `Rate limit (RATE_LIMIT_CONFIGURATIONS): ${per(config.rateLimits.configurations)} per client IP.`,
        security: [{ publicKey: [] }],
        params: ShareParams,
        headers: Type.Object({ 'x-share-password': SharePasswordHeader }),
        body: ConfigurationBody,
        response: {
          200: ConfigurationCreated,
          201: ConfigurationCreated,
          ...errors(400, 401, 403, 404, 413, 429, 503),
          402: UnavailableBody,
        },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const result = await services.configurations.create(request.shareAccess!, request.cartScene!, {
        options: body.options,
        fields: body.fields ?? {},
        quantity: body.quantity ?? 1,
        screenshot: body.screenshot,
      });
      const { created, ...answer } = result;
      return reply.code(created ? 201 : 200).send({ success: true, ...answer });
    },
  );

  app.get(
    '/configurations/:id',
    {
      config: { rateLimit: { ...config.rateLimits.shareRead, hook: 'onRequest' } },
      schema: {
        tags: ['public share'],
        summary: 'Read a cart configuration (public key headers).',
        description:
          'What a shop shows on its cart line; the token stays the proof of price. 404 not_found when unknown ' +
          'or past its retention.',
        security: [{ publicKey: [] }],
        // Any id up to the longest a configuration has is looked up: one that is not stored is a 404.
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: ConfigurationReply, ...errors(400, 401, 404, 429) },
      },
    },
    async (request) => ({ success: true, configuration: await services.configurations.get(request.params.id) }),
  );
}
