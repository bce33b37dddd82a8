import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { OpenAPIV3 } from 'openapi-types';
import { API_VERSION } from '../routes/version.js';
import { projectDataSchemaUrl } from '../routes/schemas.js';

/**
 * What the route schemas cannot say: a multipart body (validating it as a schema would make
 * Fastify buffer the upload) and the name of the `/files/*` wildcard.
 */
function describeWhatSchemasCannot(document: OpenAPIV3.Document): OpenAPIV3.Document {
  const upload = document.paths['/assets']?.post;
  if (upload) {
    upload.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: {
              file: {
                type: 'string',
                format: 'binary',
                description:
                  'A .glb, a .gltf with embedded buffers, or a .zip of a .gltf with its resources; at most 50 MB.',
              },
              name: {
                type: 'string',
                maxLength: 200,
                description: 'Display name (default: the file name without extension).',
              },
            },
          },
        },
      },
    };
  }
  const files = document.paths['/files/{*}'];
  if (files) {
    delete document.paths['/files/{*}'];
    for (const operation of [files.get, files.head]) {
      for (const parameter of (operation?.parameters ?? []) as OpenAPIV3.ParameterObject[]) {
        if (parameter.in === 'path' && parameter.name === '*')
          Object.assign(parameter, {
            name: 'key',
            description: 'The storage key, slashes included, as the signed URL gives it.',
          });
      }
    }
    document.paths['/files/{key}'] = files;
  }
  return document;
}

/**
 * Points the `data` of project saves at the published project data schema. Only here: the request validation
 * keeps its lenient shape, since saving never enforces the schema (the scene report's warnings do the telling).
 */
function referenceProjectData(document: OpenAPIV3.Document, schemaUrl: string): OpenAPIV3.Document {
  for (const operation of [document.paths['/projects']?.post, document.paths['/projects/{id}']?.put]) {
    const body = operation?.requestBody as OpenAPIV3.RequestBodyObject | undefined;
    const schema = body?.content['application/json']?.schema as OpenAPIV3.SchemaObject | undefined;
    if (!schema?.properties?.data) continue;
    schema.properties.data = {
      description:
        'The project data: models, sceneData, camera, renderQuality, saveConfigEnabled (docs/scene-format.md). ' +
        'Stored as given; the schema is advisory and problems come back as warnings.',
      allOf: [{ $ref: schemaUrl }],
    };
  }
  return document;
}

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
          publicKey: {
            type: 'apiKey',
            in: 'header',
            name: 'apikey',
            description:
              'The public key (PUBLIC_ANON_KEY), sent twice: in the apikey header and as Authorization: Bearer <key>.',
          },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
    transformObject: (documentObject) =>
      referenceProjectData(
        describeWhatSchemasCannot((documentObject as { openapiObject: OpenAPIV3.Document }).openapiObject),
        projectDataSchemaUrl(app.deps.config.publicBaseUrl),
      ),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
