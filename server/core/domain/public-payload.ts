import { createHash } from 'node:crypto';
import { redactSettings, toVec3, type ProjectData } from './scene.js';
import type { PublicModel, PublicProject } from '../wire/public-project.js';
import { isSafeKey } from '../platform/storage/driver.js';
import { storageKeys } from '../platform/storage/storage-keys.js';
import { isUuid } from './ids.js';

/**
 * The public project payload of `GET /share/:projectId/:token` (docs/api.md, Public read): only the listed fields,
 * owner credentials removed, signed URLs for the first models.
 */

/** Bump when the payload's shape changes, so clients holding an old ETag get the new shape. */
const PAYLOAD_VERSION = 2;

export type { PublicProject };

/** Where a project's model files live: its workspace, and the storage keys of its assets. */
export interface ModelFileContext {
  workspaceId: string;
  projectId: string;
  /** assetId → storage key, for assets of the project's own workspace only. */
  assetKeys: ReadonlyMap<string, string>;
}

const RENDER_QUALITIES = new Set(['optimised', 'low', 'high']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown) =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
const list = (value: unknown) => (Array.isArray(value) ? value : []);

/** The asset ids the models reference (well-formed ones only), to look their files up in one query. */
export function referencedAssetIds(models: ReadonlyArray<Record<string, unknown>>): string[] {
  const ids = new Set<string>();
  for (const model of models) if (isUuid(model.assetId)) ids.add(model.assetId.toLowerCase());
  return [...ids];
}

/**
 * The storage key of a model's file, or null when it has none that may be served: an asset of
 * the same workspace, else a project upload whose path stays inside the project's folder.
 */
export function modelStorageKey(model: Record<string, unknown>, context: ModelFileContext): string | null {
  if (typeof model.assetId === 'string') {
    const key = context.assetKeys.get(model.assetId.toLowerCase());
    if (key) return key;
  }
  if (typeof model.uploadedModelPath === 'string' && model.uploadedModelPath !== '') {
    const key = storageKeys.projectUpload(context.workspaceId, context.projectId, model.uploadedModelPath);
    if (isSafeKey(key)) return key;
  }
  return null;
}

/**
 * One model of the public payload, fields in the interface's table order; unconditional fields are always
 * present (empty when not stored). The caller adds the url.
 */
function toPublicModel(model: Record<string, unknown>): PublicModel {
  const transform = isRecord(model.transform) ? model.transform : undefined;
  return {
    id: text(model.id),
    fileName: text(model.fileName),
    ...(typeof model.assetId === 'string' ? { assetId: model.assetId } : {}),
    ...(typeof model.uploadedModelPath === 'string' ? { uploadedModelPath: model.uploadedModelPath } : {}),
    transform: model.transform ?? {},
    position: toVec3(model.position ?? transform?.position, 0),
    rotation: toVec3(model.rotation ?? transform?.rotation, 0),
    scale: toVec3(model.scale ?? transform?.scale, 1),
    partTransforms: model.partTransforms ?? {},
    deletedParts: model.deletedParts ?? [],
    pivotData: model.pivotData ?? {},
  };
}

export interface BuildPublicProjectOptions {
  /**
   * How many models get a url: the first ones of the list, those that have a servable file
   * (SIGNED_MODEL_LIMIT, default 20).
   */
  signedModelLimit: number;
  files: ModelFileContext;
  /** Signs a storage key into a model URL (stable within the signing window). */
  sign: (key: string) => string;
  /** False when the server has no cart signing key: the read then says `cart.enabled: false` (docs/cart.md). */
  cartAvailable: boolean;
}

/** The settings as served: without a signing key no add-to-cart shows, whatever the owner set. */
function servedSettings(settings: unknown, cartAvailable: boolean): Record<string, unknown> {
  if (!isRecord(settings)) return {};
  if (cartAvailable || !isRecord(settings.cart) || settings.cart.enabled !== true) return settings;
  return { ...settings, cart: { ...settings.cart, enabled: false } };
}

/** The `project` object of the public payload. */
export function buildPublicProject(
  project: { id: string; name: string; type: string },
  data: ProjectData,
  options: BuildPublicProjectOptions,
): PublicProject {
  const models = list(data.models).filter(isRecord);
  const publicModels = models.map((model, index) => {
    const out = toPublicModel(model);
    // By position, as the interface says: a model past the 20th never has a url, even when an
    // earlier one has no file.
    if (index >= options.signedModelLimit) return out;
    const key = modelStorageKey(model, options.files);
    if (!key) return out;
    // url right after fileName, in the order of the interface's table.
    const { id, fileName, ...rest } = out;
    return { id, fileName, url: options.sign(key), ...rest };
  });
  const sceneData = isRecord(data.sceneData) ? data.sceneData : {};
  const settings = redactSettings(sceneData.projectSettings);
  const camera = isRecord(data.camera) ? data.camera : undefined;
  return {
    id: project.id,
    name: project.name,
    type: project.type,
    data: {
      models: publicModels,
      sceneData: {
        optionBlocks: list(sceneData.optionBlocks),
        projectSettings: servedSettings(settings, options.cartAvailable),
        formFields: list(sceneData.formFields),
        animationBlocks: list(sceneData.animationBlocks),
        pricingBlocks: list(sceneData.pricingBlocks),
        pricingFormula: list(sceneData.pricingFormula),
      },
      ...(camera ? { camera: { position: toVec3(camera.position, 0), target: toVec3(camera.target, 0) } } : {}),
      renderQuality: RENDER_QUALITIES.has(data.renderQuality) ? data.renderQuality : 'optimised',
      saveConfigEnabled: data.saveConfigEnabled === true,
    },
  };
}

/**
 * Signed URLs for the requested models (the missing-URL fallback), any model of the project,
 * not only the first ones. Unknown ids and models without a servable file are left out.
 */
export function modelUrls(
  data: ProjectData,
  modelIds: readonly string[],
  files: ModelFileContext,
  sign: (key: string) => string,
): Record<string, string> {
  const wanted = new Set(modelIds);
  const urls: Record<string, string> = {};
  for (const model of list(data.models).filter(isRecord)) {
    const id = text(model.id);
    if (!wanted.has(id) || id in urls) continue;
    const key = modelStorageKey(model, files);
    if (key) urls[id] = sign(key);
  }
  return urls;
}

export interface EtagInput {
  projectId: string;
  projectRevision: number;
  shareRevision: number;
  /** The workspace's assets revision (a deleted asset drops a model URL). */
  assetsRevision: number;
  /** signingWindow() of the model URLs in the body. */
  signingWindow: number;
  signedModelLimit: number;
  /** Whether the server signs cart tokens: the payload's `cart.enabled` depends on it. */
  cartAvailable: boolean;
}

/**
 * The strong ETag of the public read. It is derived from what the body depends on, not from
 * the body, so a 304 is decided without reading or decompressing the scene.
 */
export function publicEtag(input: EtagInput): string {
  const digest = createHash('sha256')
    .update(
      [
        PAYLOAD_VERSION,
        input.projectId,
        input.projectRevision,
        input.shareRevision,
        input.assetsRevision,
        input.signingWindow,
        input.signedModelLimit,
        input.cartAvailable,
      ].join('|'),
    )
    .digest('base64url')
    .slice(0, 27);
  return `"${digest}"`;
}

/** If-None-Match against one ETag, with the weak comparison RFC 9110 prescribes for GET. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  // What a client echoing the ETag it was given sends: no parsing needed.
  if (ifNoneMatch === etag) return true;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const mine = opaque(etag);
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === mine);
}
