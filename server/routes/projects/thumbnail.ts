import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, errors } from '../../schemas/common.js';
import { MAX_THUMBNAIL_BYTES, MAX_THUMBNAIL_SIDE } from '../../core/wire/project-thumbnail.js';

/** Base64 makes 4 characters of 3 bytes; the rest is the data URL's prefix and the JSON around it. */
const BODY_LIMIT = Math.ceil(MAX_THUMBNAIL_BYTES / 3) * 4 + 1024;

const ThumbnailBody = Type.Object(
  {
    image: Type.String({
      maxLength: BODY_LIMIT,
      description:
        `A data URL of a PNG, JPEG or WebP image, at most ${MAX_THUMBNAIL_BYTES / 1024} KB and ` +
        `${MAX_THUMBNAIL_SIDE} pixels per side.`,
    }),
  },
  { additionalProperties: false },
);

/**
 * `PUT` and `DELETE /projects/:id/thumbnail` (docs/api.md, "Project thumbnails"): the picture on the project's card.
 * Not part of the project's data: setting one makes no revision and changes no public read.
 */
export default async function thumbnailRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { signer } = app.deps;
  const { projects } = app.deps.services;
  const tags = ['projects'];

  app.put(
    '/projects/:id/thumbnail',
    {
      onRequest: app.access('write'),
      bodyLimit: BODY_LIMIT,
      schema: {
        tags,
        summary: "Set the project's thumbnail.",
        description: 'Replaces the previous thumbnail. Editors and above.',
        params: IdParams,
        body: ThumbnailBody,
        response: {
          200: Type.Object({ success: Type.Boolean(), thumbnailUrl: Type.String() }),
          ...errors(400, 401, 403, 404, 413),
        },
      },
    },
    async (request) => {
      const key = await projects.setThumbnail(request.auth.workspaceId, request.params.id, request.body.image);
      return { success: true, thumbnailUrl: signer.signModel(key) };
    },
  );

  app.delete(
    '/projects/:id/thumbnail',
    {
      onRequest: app.access('write'),
      schema: {
        tags,
        summary: "Remove the project's thumbnail.",
        params: IdParams,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errors(401, 403, 404) },
      },
    },
    async (request) => {
      await projects.clearThumbnail(request.auth.workspaceId, request.params.id);
      return { success: true };
    },
  );
}
