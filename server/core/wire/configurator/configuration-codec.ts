import type { Options } from './types.js';

/** A saved configuration's content (12.8). */
export interface SavedConfiguration {
  projectId?: string;
  options: Options;
  fields?: Record<string, number>;
}

/** base64url (no padding) of `{ v: 1, projectId, options, fields? }`; at most 2,048 characters. */
export function encodeConfiguration(configuration: SavedConfiguration & { projectId: string }): string {
  void configuration;
  throw new Error('encodeConfiguration: not implemented yet');
}

/**
 * Decodes the fragment's or attribute's text: base64url, or plain JSON starting with `{`.
 * Too long, undecodable or an unknown `v`: null (ignored whole).
 */
export function decodeConfiguration(text: string): SavedConfiguration | null {
  void text;
  throw new Error('decodeConfiguration: not implemented yet');
}
