/**
 * The 3D view's own texts. Only the viewer chunk reads them, so they travel in that chunk and the
 * loader stays within its 15 KB; a page replaces them through the element's `strings`.
 */
export const VIEWER_STRINGS = {
  resetView: 'Reset view',
};

export type ViewerStrings = typeof VIEWER_STRINGS;
