import { Type } from 'typebox';

/** Shapes of the public share routes (docs/api.md, Public read); the owner settings' live in server/core/wire. */
export { ShareSettingsInput, ShareSettingsReply } from '../core/wire/share-settings.js';

/** Path parameters of the public routes, unvalidated here: malformed ones are the same 404 as a wrong token. */
export const ShareParams = Type.Object({
  projectId: Type.String({ description: 'Project id.' }),
  token: Type.String({ description: 'Share token.' }),
});

const Vec3 = Type.Object({ x: Type.Number(), y: Type.Number(), z: Type.Number() });

/** The optional X-Share-Password header of the public routes. */
export const SharePasswordHeader = Type.Optional(
  Type.String({ description: 'The share password, as UTF-8, when the share requires one.' }),
);

/** Optional headers of model-urls (the public key headers are in the security scheme). */
export const ModelUrlsHeaders = Type.Object({ 'x-share-password': SharePasswordHeader });

/** Optional headers of the public read. */
export const PublicReadHeaders = Type.Object({
  'x-share-password': SharePasswordHeader,
  'if-none-match': Type.Optional(
    Type.String({ description: 'The ETag of the payload the client holds: 304 when unchanged.' }),
  ),
});

const PublicModel = Type.Object({
  id: Type.String(),
  fileName: Type.String(),
  url: Type.Optional(
    Type.String({
      description:
        'Signed file URL valid one year; missing beyond the first SIGNED_MODEL_LIMIT (20) models: use model-urls.',
    }),
  ),
  assetId: Type.Optional(Type.String()),
  uploadedModelPath: Type.Optional(Type.String()),
  transform: Type.Unknown({ description: 'The raw stored transform; {} when none is stored.' }),
  position: Vec3,
  rotation: Vec3,
  scale: Vec3,
  partTransforms: Type.Unknown({ description: 'Per-part transforms; {} when none are stored.' }),
  deletedParts: Type.Unknown({ description: 'Deleted parts; [] when none are stored.' }),
  pivotData: Type.Unknown({ description: 'Pivot data; {} when none is stored.' }),
});

export const PublicProjectReply = Type.Object({
  success: Type.Boolean(),
  project: Type.Object({
    id: Type.String(),
    name: Type.String(),
    type: Type.String(),
    data: Type.Object({
      models: Type.Array(PublicModel),
      sceneData: Type.Object({
        optionBlocks: Type.Array(Type.Unknown()),
        projectSettings: Type.Object(
          {},
          {
            additionalProperties: true,
            description:
              'Owner credentials (smtp*, emailAdminAddress, webhook*, woocommerce*, shopify*) removed at any depth.',
          },
        ),
        formFields: Type.Array(Type.Unknown()),
        animationBlocks: Type.Array(Type.Unknown()),
        pricingBlocks: Type.Array(Type.Unknown()),
        pricingFormula: Type.Array(Type.Unknown()),
      }),
      camera: Type.Optional(Type.Object({ position: Vec3, target: Vec3 })),
      renderQuality: Type.Union([Type.Literal('optimised'), Type.Literal('low'), Type.Literal('high')]),
      saveConfigEnabled: Type.Boolean(),
    }),
  }),
});

/** The 402 body: exactly these keys, so clients can show a neutral state without the reason. */
export const UnavailableBody = Type.Object({
  success: Type.Literal(false),
  error: Type.Literal('unavailable'),
  reason: Type.Literal('owner_billing'),
});

export const ModelUrlsBody = Type.Object({
  modelIds: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 20 }),
});

export const ModelUrlsReply = Type.Object({
  success: Type.Boolean(),
  urls: Type.Record(Type.String(), Type.String(), {
    description: 'modelId → signed URL; unknown ids and models without a file are absent.',
  }),
});
