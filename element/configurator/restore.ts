import { decodeConfiguration, type SavedConfiguration } from '#core/wire/configurator/index.js';

/**
 * The selections a page asks for at load (docs/scene-format.md, Saved configurations), and why a saved configuration
 * was set aside.
 */
export interface RestoreRequest {
  saved: SavedConfiguration | null;
  /** A message naming what could not be used, for `config-share-error { type: "configuration" }`. */
  problem?: string;
}

/** `#cs=<configuration>` in the page's fragment, if any. */
const fragmentConfiguration = (hash: string) => /[#&]cs=([^&]*)/.exec(hash)?.[1];

/**
 * First found wins: the fragment (only when it names this project; another element's link is not
 * ours to judge), then the `configuration` attribute, then the defaults (no saved configuration).
 */
export function restoreRequest(projectId: string, attribute: string | null, hash: string): RestoreRequest {
  const fragment = fragmentConfiguration(hash);
  if (fragment) {
    const saved = decodeConfiguration(decodeURIComponent(fragment));
    if (saved?.projectId === projectId) return { saved };
  }
  if (!attribute) return { saved: null };
  const saved = decodeConfiguration(attribute.trim());
  if (!saved)
    return { saved: null, problem: 'The configuration attribute is not a saved configuration: defaults apply.' };
  if (saved.projectId && saved.projectId !== projectId)
    return { saved: null, problem: `The configuration attribute is for project ${saved.projectId}: defaults apply.` };
  return { saved };
}
