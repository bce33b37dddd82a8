/**
 * The limits of the public submit (docs/api.md, Submit), shared by the server, the BFF and the element.
 * No Node imports: browser code imports this file.
 */

/** At most this many screenshots per submit. */
export const MAX_SCREENSHOTS = 5;
/** Decoded size limit of one screenshot: 5 MB, 5,000,000 bytes (docs/api.md, Submit). */
export const MAX_SCREENSHOT_BYTES = 5_000_000;
/** Screenshot types a submit may carry. */
export const SCREENSHOT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** One of {@link SCREENSHOT_TYPES}. */
export type ScreenshotType = (typeof SCREENSHOT_TYPES)[number];
/** The most pixels a screenshot may have (4096 × 4096, 64 MiB decoded as RGBA). */
export const MAX_SCREENSHOT_PIXELS = 4096 * 4096;
/** The longest side a screenshot may have, in pixels. */
export const MAX_SCREENSHOT_SIDE = 8192;
/** Longest configurationSummary, in characters. */
export const MAX_SUMMARY_CHARS = 20_000;
/** Largest formData and selectedOptions, each, as JSON. */
export const MAX_OBJECT_JSON_BYTES = 256 * 1024;

/**
 * The submit body limit: five screenshots at their limit, base64-encoded (4/3), plus room for
 * the other fields. Large enough for that, and no larger.
 */
export const SUBMIT_BODY_LIMIT = 36 * 1024 * 1024;
/** How long an Idempotency-Key is remembered per project. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
