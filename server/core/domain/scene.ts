import { invalidRequest } from './errors.js';
import { gzipSync, gunzipSync } from 'node:zlib';
import type { Vec3 } from '../wire/public-project.js';

/**
 * The project scene as owners store it and as the public read serves it. Storage is gzip'd
 * JSON; the public form normalises vectors and removes owner credentials from projectSettings.
 */
export type { Vec3 };

export interface ProjectData {
  models: Array<Record<string, unknown>>;
  sceneData: Record<string, unknown>;
  camera?: Record<string, unknown>;
  renderQuality: 'optimised' | 'low' | 'high';
  saveConfigEnabled: boolean;
}

export function compressScene(data: ProjectData): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(data)));
}

export function decompressScene(scene: Buffer): ProjectData {
  return JSON.parse(gunzipSync(scene).toString('utf8')) as ProjectData;
}

/** Accepts `[x,y,z]`, `{x,y,z}` or nothing; always answers `{x,y,z}` of finite numbers. */
export function toVec3(value: unknown, fallback: number): Vec3 {
  const num = (v: unknown) =>
    typeof v === 'number' && Number.isFinite(v)
      ? v
      : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
        ? Number(v)
        : fallback;
  if (Array.isArray(value)) return { x: num(value[0]), y: num(value[1]), z: num(value[2]) };
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    return { x: num(v.x), y: num(v.y), z: num(v.z) };
  }
  return { x: fallback, y: fallback, z: fallback };
}

/** Keys removed from projectSettings, at any depth, before a project is shown publicly. */
const REDACTED_KEY = /^(smtp|webhook|woocommerce|shopify)|^emailadminaddress$/i;

export function redactSettings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSettings);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (REDACTED_KEY.test(key)) continue;
    out[key] = redactSettings(inner);
  }
  return out;
}

/**
 * The stored scene: the five keys of a project's data with the defaults the public read relies on (docs/api.md).
 * Other keys are ignored like any unknown field, not stored; two models with one id are a 400.
 */
export function normalizeData(data: Partial<ProjectData> | undefined): ProjectData {
  assertUniqueModelIds(data?.models as Array<{ id: string }> | undefined);
  return {
    models: data?.models ?? [],
    sceneData: data?.sceneData ?? {},
    renderQuality: data?.renderQuality ?? 'optimised',
    saveConfigEnabled: data?.saveConfigEnabled ?? false,
    ...(data?.camera !== undefined ? { camera: data.camera } : {}),
  };
}

/**
 * Model ids are the keyspace option blocks target (targetObjectId) and model-urls answers by:
 * two models with one id would make both ambiguous.
 */
function assertUniqueModelIds(models: ReadonlyArray<{ id: string }> = []): void {
  const seen = new Set<string>();
  const details = models.flatMap((model, index) => {
    if (!seen.has(model.id)) {
      seen.add(model.id);
      return [];
    }
    return [{ field: `body.data.models.${index}.id`, message: `repeats the id "${model.id}" of an earlier model` }];
  });
  if (details.length > 0) throw invalidRequest(`${details[0].field} ${details[0].message}`, details);
}
