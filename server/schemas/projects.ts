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
    transform: Type.Optional(OpaqueObject),
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

export const ProjectInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  type: Type.String({ minLength: 1, maxLength: 50, default: 'configurator' }),
  data: Type.Optional(ProjectData),
});
