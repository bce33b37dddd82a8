/**
 * A Vary value that also names Accept: the share link answers JSON or the share page by it, so
 * caches in front must keep them apart.
 */
export function varyWithAccept(vary: string | undefined): string {
  if (!vary) return 'Accept';
  return /(^|,)\s*accept\s*(,|$)/i.test(vary) ? vary : `${vary}, Accept`;
}
