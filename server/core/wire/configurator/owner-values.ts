import type { PartialVec3, Vec3 } from './types.js';
import type { SceneWarnings } from './scene-warnings.js';

/**
 * Readers for the owner's JSON values (docs/scene-format.md, How the configurator reads the data): each answers the
 * usable value or undefined, and says why in a warning at `path`. Unknown fields are never read, so they pass silently.
 */

export type Json = Record<string, unknown>;

export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Owner numbers (prices, amounts, bounds) stay within ±1,000,000,000 major units (docs/scene-format.md, Limits). */
export const MAX_OWNER_NUMBER = 1_000_000_000;
export const MAX_ID_LENGTH = 64;
export const MAX_LABEL_LENGTH = 200;

/** Present in the owner's JSON: neither absent nor null. */
export const isGiven = (value: unknown) => value !== undefined && value !== null;

export const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/** An id: a string of 1 to 64 characters, or a number as its decimal string. */
export function readId(value: unknown, path: string, warnings: SceneWarnings): string | undefined {
  if (value === undefined || value === null || value === '') {
    warnings.warn(path, 'missing_field', 'An id is required.');
    return undefined;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') {
    warnings.warn(path, 'invalid_type', 'An id must be a string or a number.');
    return undefined;
  }
  if (value.length > MAX_ID_LENGTH) {
    warnings.warn(path, 'invalid_value', `An id has at most ${MAX_ID_LENGTH} characters.`);
    return undefined;
  }
  return value;
}

/** A name or label of at most 200 characters (longer ones are cut); missing: `fallback`. */
export function readLabel(value: unknown, fallback: string, path: string, warnings: SceneWarnings): string {
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') {
    warnings.warn(path, 'invalid_type', 'A name or label must be text; the id is used instead.');
    return fallback;
  }
  if (value.length > MAX_LABEL_LENGTH) {
    warnings.warn(path, 'invalid_value', `A name or label has at most ${MAX_LABEL_LENGTH} characters; cut.`);
    return value.slice(0, MAX_LABEL_LENGTH);
  }
  return value;
}

/** A string of 1 to `max` characters (glTF names, SKUs, clips). */
export function readText(value: unknown, path: string, warnings: SceneWarnings, max = MAX_LABEL_LENGTH) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '') {
    warnings.warn(path, 'invalid_type', 'Must be a non-empty text.');
    return undefined;
  }
  if (value.length > max) {
    warnings.warn(path, 'invalid_value', `Must have at most ${max} characters.`);
    return undefined;
  }
  return value;
}

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** `#rgb` or `#rrggbb` as lower-case `#rrggbb`. */
export function readColor(value: unknown, path: string, warnings: SceneWarnings): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !HEX_COLOR.test(value)) {
    warnings.warn(path, 'invalid_value', 'A colour is written #rgb or #rrggbb.');
    return undefined;
  }
  const hex = value.slice(1).toLowerCase();
  return hex.length === 3 ? `#${[...hex].map((digit) => digit + digit).join('')}` : `#${hex}`;
}

/** An absolute `https:` URL (thumbnails, textures, the logo). */
export function readHttpsUrl(value: unknown, path: string, warnings: SceneWarnings): string | undefined {
  if (value === undefined || value === null) return undefined;
  let url: URL | undefined;
  try {
    url = typeof value === 'string' && value.length <= 2048 ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:') {
    warnings.warn(path, 'invalid_value', 'A URL must be an absolute https: address.');
    return undefined;
  }
  return value as string;
}

export function readBoolean(value: unknown, path: string, warnings: SceneWarnings): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') {
    warnings.warn(path, 'invalid_type', 'Must be true or false.');
    return undefined;
  }
  return value;
}

/** A finite number within [min, max]; owner amounts default to ±1,000,000,000 (docs/scene-format.md, Limits). */
export function readNumber(
  value: unknown,
  path: string,
  warnings: SceneWarnings,
  min = -MAX_OWNER_NUMBER,
  max = MAX_OWNER_NUMBER,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    warnings.warn(path, 'invalid_type', 'Must be a number.');
    return undefined;
  }
  if (value < min || value > max) {
    warnings.warn(path, 'invalid_value', `Must be between ${min} and ${max}.`);
    return undefined;
  }
  return value;
}

/** One of `allowed`; `code` says whether an outsider is a bad value or an unsupported kind. */
export function readEnum<T extends string>(
  value: unknown,
  allowed: readonly T[],
  path: string,
  warnings: SceneWarnings,
  code: 'invalid_value' | 'unsupported' = 'invalid_value',
): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  warnings.warn(path, code, `Must be one of ${allowed.join(', ')}.`);
  return undefined;
}

const AXES = ['x', 'y', 'z'] as const;

/** A vector `{x,y,z}` or `[x,y,z]`; an omitted (or unusable) component keeps the node's own value. */
export function readPartialVec3(value: unknown, path: string, warnings: SceneWarnings): PartialVec3 | undefined {
  if (value === undefined || value === null) return undefined;
  let source: Json;
  if (Array.isArray(value) && value.length === 3) source = { x: value[0], y: value[1], z: value[2] };
  else if (isRecord(value)) source = value;
  else {
    warnings.warn(path, 'invalid_type', 'A vector is {x,y,z} or [x,y,z].');
    return undefined;
  }
  const vector: PartialVec3 = {};
  for (const axis of AXES) {
    const component = readNumber(source[axis], join(path, axis), warnings, -Number.MAX_VALUE, Number.MAX_VALUE);
    if (component !== undefined) vector[axis] = component;
  }
  return vector;
}

/** A full vector, missing components 0 (pivots). */
export function readVec3(value: unknown, path: string, warnings: SceneWarnings): Vec3 | undefined {
  const vector = readPartialVec3(value, path, warnings);
  return vector && { x: vector.x ?? 0, y: vector.y ?? 0, z: vector.z ?? 0 };
}

/**
 * The first `max` entries of an array (docs/scene-format.md, Limits), with one `limit_exceeded` warning for the rest.
 */
export function readList(value: unknown, max: number, path: string, warnings: SceneWarnings): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    warnings.warn(path, 'invalid_type', 'Must be a list.');
    return [];
  }
  if (value.length > max) {
    warnings.warn(path, 'limit_exceeded', `At most ${max} entries; the first ${max} are kept.`);
    return value.slice(0, max);
  }
  return value;
}

/** An object's own entries, the first `max` kept (docs/scene-format.md, Limits). */
export function readEntries(value: unknown, max: number, path: string, warnings: SceneWarnings): [string, unknown][] {
  if (value === undefined || value === null) return [];
  if (!isRecord(value)) {
    warnings.warn(path, 'invalid_type', 'Must be an object.');
    return [];
  }
  const entries = Object.entries(value);
  if (entries.length > max) {
    warnings.warn(path, 'limit_exceeded', `At most ${max} entries; the first ${max} are kept.`);
    return entries.slice(0, max);
  }
  return entries;
}

/** Sets an own property even for keys such as `__proto__`, which owner ids may be. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
