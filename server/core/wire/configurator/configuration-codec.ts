import { isRecord, setOwn } from './owner-values.js';
import { readNumberField } from './read-number-field.js';
import type { Options, Scene } from './types.js';

/** A saved configuration's content (docs/scene-format.md, Saved configurations). */
export interface SavedConfiguration {
  projectId?: string;
  options: Options;
  fields?: Record<string, number>;
}

/** A configuration's text is at most 2,048 characters (docs/scene-format.md, Limits); longer is ignored whole. */
export const MAX_CONFIGURATION_LENGTH = 2048;
const VERSION = 1;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** UTF-8 → base64url without padding, with browser globals only (no Node Buffer: the element imports this). */
function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** base64url (no padding) of `{ v: 1, projectId, options, fields? }`; at most 2,048 characters. */
export function encodeConfiguration(configuration: SavedConfiguration & { projectId: string }): string {
  const { projectId, options, fields } = configuration;
  const hasFields = fields !== undefined && Object.keys(fields).length > 0;
  return toBase64Url(JSON.stringify({ v: VERSION, projectId, options, ...(hasFields ? { fields } : {}) }));
}

/** String entries only: a stale or odd entry is for resolveOptions to ignore, not a reason to drop all. */
const stringEntries = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
const numberEntries = (value: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, number] => typeof entry[1] === 'number' && Number.isFinite(entry[1]),
    ),
  );

/**
 * Decodes the fragment's or attribute's text: base64url, or plain JSON starting with `{`.
 * Too long, undecodable or an unknown `v`: null (ignored whole).
 */
export function decodeConfiguration(text: string): SavedConfiguration | null {
  if (typeof text !== 'string') return null;
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > MAX_CONFIGURATION_LENGTH) return null;
  const plain = trimmed.startsWith('{');
  const json = plain ? trimmed : fromBase64Url(trimmed);
  if (json === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  // Plain JSON (a product page's preset) may leave out `v` and `projectId`; the encoded form carries both.
  if (plain ? value.v !== undefined && value.v !== VERSION : value.v !== VERSION) return null;
  if (value.projectId !== undefined && typeof value.projectId !== 'string') return null;
  if (value.options !== undefined && !isRecord(value.options)) return null;
  if (value.fields !== undefined && !isRecord(value.fields)) return null;
  const configuration: SavedConfiguration = { options: isRecord(value.options) ? stringEntries(value.options) : {} };
  if (typeof value.projectId === 'string') configuration.projectId = value.projectId;
  if (isRecord(value.fields)) configuration.fields = numberEntries(value.fields);
  return configuration;
}

/** The number fields the formula reads, with the values pricing uses: a saved configuration keeps only these. */
export function configurationFieldsFor(scene: Scene, fields: Record<string, unknown> | undefined) {
  const read: Record<string, number> = {};
  for (const step of scene.formula) {
    if (step.operand.kind !== 'field') continue;
    const id = step.operand.field;
    const field = scene.numberFields.find((entry) => entry.id === id);
    const value = field ? readNumberField(field, fields) : null;
    if (value !== null) setOwn(read, id, value);
  }
  return read;
}
