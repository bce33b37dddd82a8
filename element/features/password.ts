import type { ShareTarget } from './api.js';

/**
 * Passwords accepted during this page session, kept in memory rather than sessionStorage so they never land in the
 * merchant's storage; reload() and other elements of the same share still do not ask again.
 */
const accepted = new Map<string, string>();
const keyOf = ({ projectId, token }: ShareTarget) => `${projectId}/${token}`;

/** The password accepted for this share in this page session, if any. */
export const rememberedPassword = (target: ShareTarget) => accepted.get(keyOf(target));

/** Remembers an accepted password, or forgets it (undefined) once the server refuses it. */
export function rememberPassword(target: ShareTarget, password: string | undefined) {
  if (password === undefined) accepted.delete(keyOf(target));
  else accepted.set(keyOf(target), password);
}
