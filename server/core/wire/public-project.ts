/**
 * The public project payload (docs/api.md, Public read) as browsers receive it. Types only, no Node imports: the
 * `<config-share>` element imports this file.
 */

/** A vector as the public payload writes it: stored `[x,y,z]` arrays become `{x,y,z}`. */
export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/** One model of the payload; `url` only for the first SIGNED_MODEL_LIMIT models with a servable file. */
export interface PublicModel {
  id: string;
  fileName: string;
  url?: string;
  assetId?: string;
  uploadedModelPath?: string;
  transform: unknown;
  position: Vec3;
  rotation: Vec3;
  scale: Vec3;
  partTransforms: unknown;
  deletedParts: unknown;
  pivotData: unknown;
}

/** The `project` object of the public read; owner credentials are already removed from projectSettings. */
export interface PublicProject {
  id: string;
  name: string;
  type: string;
  data: {
    models: PublicModel[];
    sceneData: {
      optionBlocks: unknown[];
      projectSettings: Record<string, unknown>;
      formFields: unknown[];
      animationBlocks: unknown[];
      pricingBlocks: unknown[];
      pricingFormula: unknown[];
    };
    camera?: { position: Vec3; target: Vec3 };
    renderQuality: 'optimised' | 'low' | 'high';
    saveConfigEnabled: boolean;
  };
}
