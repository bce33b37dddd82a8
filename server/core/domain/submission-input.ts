import { invalidRequest } from './errors.js';
import { FORM_FIELD_MESSAGES } from '../wire/form-field-messages.js';
import { checkFormFields } from '../wire/form-field-rules.js';
import { readFormFields } from '../wire/form-fields.js';
import { MAX_SCREENSHOT_PIXELS, MAX_SCREENSHOT_SIDE, imageDimensions } from './image-dimensions.js';
import {
  MAX_OBJECT_JSON_BYTES,
  MAX_SCREENSHOT_BYTES,
  SCREENSHOT_TYPES,
  type ScreenshotType,
} from '../wire/submit-limits.js';

/**
 * The rules a public submit's body must pass beyond its schema (docs/api.md, Submit): screenshots
 * that are what they claim and small enough to decode, answers that fit the form's fields, bounded JSON.
 */
const isScreenshotType = (type: string): type is ScreenshotType =>
  (SCREENSHOT_TYPES as readonly string[]).includes(type);

const DATA_URL = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)((?:;[a-z0-9-]+=[^;,]*)*);base64,/i;

const fieldError = (field: string, message: string) => invalidRequest(`${field} ${message}`, [{ field, message }]);

/** What a decoded image data URL may weigh and measure. */
export interface ImageLimits {
  maxBytes: number;
  /** In words for the error, e.g. "5 MB (5,000,000 bytes)". */
  maxBytesText: string;
  maxSide: number;
  maxPixels: number;
}

const SCREENSHOT_LIMITS: ImageLimits = {
  maxBytes: MAX_SCREENSHOT_BYTES,
  maxBytesText: '5 MB (5,000,000 bytes)',
  maxSide: MAX_SCREENSHOT_SIDE,
  maxPixels: MAX_SCREENSHOT_PIXELS,
};

/**
 * Decodes an image data URL, checking type, size, content and pixel size: decoders allocate by pixels,
 * not file size (a 249 KB PNG of 8000 × 8000 costs the PDF step 1 GB).
 */
export function decodeImageDataUrl(
  value: string,
  field: string,
  limits: ImageLimits,
): { mimeType: ScreenshotType; data: Buffer } {
  const match = DATA_URL.exec(value);
  if (!match) throw fieldError(field, 'must be a base64 data URL (data:image/png;base64,...).');
  const mimeType = match[1].toLowerCase();
  if (!isScreenshotType(mimeType))
    throw fieldError(field, `has type ${mimeType}; allowed are image/png, image/jpeg and image/webp.`);
  const payload = value.slice(match[0].length);
  // Checked before decoding, so an oversized image costs no allocation.
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  if ((payload.length / 4) * 3 - padding > limits.maxBytes)
    throw fieldError(field, `is larger than ${limits.maxBytesText}.`);
  const data = Buffer.from(payload, 'base64');
  // Node's decoder skips what is not base64; only canonical base64 encodes back to itself. A regex over the text
  // blocks the event loop far longer (0.59 against 0.035 ms for a 90 KB picture).
  if (payload.length % 4 !== 0 || data.toString('base64') !== payload) throw fieldError(field, 'is not valid base64.');
  if (data.length === 0) throw fieldError(field, 'is empty.');
  // The header check is also the type check: null unless the bytes are a readable image of that type.
  const size = imageDimensions(data, mimeType);
  if (!size) throw fieldError(field, `does not contain ${mimeType} data with a readable header.`);
  const { width, height } = size;
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels) {
    throw fieldError(
      field,
      `is ${width} × ${height} pixels; at most ${limits.maxSide} per side and ${limits.maxPixels} in all.`,
    );
  }
  return { mimeType, data };
}

/** One screenshot of a submit. */
export const decodeScreenshot = (value: string, index: number) =>
  decodeImageDataUrl(value, `body.screenshots.${index}`, SCREENSHOT_LIMITS);

/**
 * The answers checked against the project's form fields (required, then by type): a 400 whose
 * `details` name each field in error, in the form's order, with the message the element shows.
 */
export function checkFormData(formFields: unknown, formData: Record<string, unknown>) {
  const problems = checkFormFields(readFormFields(formFields), formData, FORM_FIELD_MESSAGES);
  if (problems.length === 0) return;
  throw invalidRequest(
    `Check these form fields: ${problems.map((problem) => `${problem.id} (${problem.message})`).join(', ')}`,
    problems.map((problem) => ({ field: `body.formData.${problem.id}`, message: problem.message })),
  );
}

export function checkJsonSize(field: string, value: unknown) {
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_OBJECT_JSON_BYTES)
    throw fieldError(field, `is larger than ${MAX_OBJECT_JSON_BYTES / 1024} KB as JSON.`);
}
