import { Type } from 'typebox';
import { OpaqueObject } from './common.js';

const Vector = Type.Union([
  Type.Array(Type.Number(), { minItems: 3, maxItems: 3 }),
  Type.Object({ x: Type.Number(), y: Type.Number(), z: Type.Number() }),
]);

const ModelEntry = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200 }),
    fileName: Type.String({ minLength: 1, maxLength: 500 }),
    assetId: Type.Optional(Type.String({ format: 'uuid' })),
    uploadedModelPath: Type.Optional(Type.String({ maxLength: 500 })),
    position: Type.Optional(Vector),
    rotation: Type.Optional(Vector),
    scale: Type.Optional(Vector),
    // A 16-number matrix is a transform too (docs/scene-format.md, model entries).
    transform: Type.Optional(Type.Union([Type.Array(Type.Number(), { minItems: 16, maxItems: 16 }), OpaqueObject])),
    partTransforms: Type.Optional(OpaqueObject),
    deletedParts: Type.Optional(Type.Array(Type.Unknown())),
    pivotData: Type.Optional(OpaqueObject),
  },
  { additionalProperties: true },
);

const SceneData = Type.Object(
  {
    optionBlocks: Type.Optional(Type.Array(Type.Unknown())),
    projectSettings: Type.Optional(OpaqueObject),
    formFields: Type.Optional(Type.Array(Type.Unknown())),
    animationBlocks: Type.Optional(Type.Array(Type.Unknown())),
    pricingBlocks: Type.Optional(Type.Array(Type.Unknown())),
    pricingFormula: Type.Optional(Type.Array(Type.Unknown())),
  },
  { additionalProperties: true },
);

const RenderQuality = Type.Union([Type.Literal('optimised'), Type.Literal('low'), Type.Literal('high')]);

const ProjectData = Type.Object({
  models: Type.Array(ModelEntry, { default: [], maxItems: 5000 }),
  sceneData: Type.Optional(SceneData),
  camera: Type.Optional(Type.Object({ position: Vector, target: Vector }, { additionalProperties: true })),
  renderQuality: Type.Optional(RenderQuality),
  saveConfigEnabled: Type.Optional(Type.Boolean()),
});

/**
 * A save's body. `data` is held only to the placement shape the public read needs. What the configurator makes
 * of it is the published project data schema (GET /schemas/project-data.json), which the OpenAPI description
 * references and saving does not enforce: the parser's warnings stay the rule.
 */
export const ProjectInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  type: Type.String({ minLength: 1, maxLength: 50, default: 'configurator' }),
  data: Type.Optional(ProjectData),
});
