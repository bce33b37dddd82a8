import { Type } from 'typebox';

/** A 3D asset as the API returns it. The file itself is reachable only through the signed `url`. */
const Asset = Type.Object({
  id: Type.String(),
  name: Type.String({ description: 'Display name.' }),
  fileName: Type.String({ description: 'Name of the stored GLB (the upload name with a .glb extension).' }),
  contentType: Type.String(),
  sizeBytes: Type.Integer({ description: 'Size of the stored GLB.' }),
  sourceFormat: Type.Union([Type.Literal('glb'), Type.Literal('gltf'), Type.Literal('zip')], {
    description: 'What was uploaded or imported.',
  }),
  url: Type.String({ description: 'Signed /files URL of the GLB, valid 1 hour.' }),
  modelInfo: Type.Object(
    {},
    { additionalProperties: true, description: "The Khronos validator's summary: counts, flags, warnings." },
  ),
  externalSource: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
    description: 'Provenance of an imported model; null for uploads.',
  }),
  readinessScore: Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()], {
    description: 'Configurator Readiness score; null for uploads.',
  }),
  readinessLevel: Type.Union(
    [Type.Literal('ready'), Type.Literal('needs-work'), Type.Literal('not-ready'), Type.Null()],
    { description: 'null for uploads.' },
  ),
  delivery: Type.Object(
    {
      status: Type.Union(
        [Type.Literal('pending'), Type.Literal('ready'), Type.Literal('skipped'), Type.Literal('failed')],
        { description: 'pending: being made; ready: shoppers get it; skipped or failed: shoppers get the original.' },
      ),
      sizeBytes: Type.Union([Type.Integer(), Type.Null()], { description: 'Size of the delivery file when ready.' }),
      originalBytes: Type.Integer({ description: 'Size of the original, the same as `sizeBytes` above.' }),
      reason: Type.Union([Type.String(), Type.Null()], {
        description: 'Why shoppers get the original (skipped, failed).',
      }),
    },
    { description: 'The optimized file shoppers download (docs/delivery-files.md); `url` stays the original.' },
  ),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const AssetReply = Type.Object({ success: Type.Boolean(), asset: Asset });

export const AssetList = Type.Object({
  success: Type.Boolean(),
  assets: Type.Array(Asset),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

/** Limits of a POST /assets upload (multipart). */
export const UPLOAD_LIMITS = {
  /** Largest upload, in bytes: 50 MB, the same limit as the model checks. */
  fileSize: 50_000_000,
  /** Longest display name, in characters. */
  nameLength: 200,
} as const;
