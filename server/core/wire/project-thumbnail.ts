/** A project's thumbnail (docs/api.md, "Project thumbnails"): small enough for a list of cards. */
export const MAX_THUMBNAIL_BYTES = 256 * 1024;
export const MAX_THUMBNAIL_SIDE = 1024;
