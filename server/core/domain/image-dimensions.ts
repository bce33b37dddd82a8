import { imageSize } from 'image-size';
import { MAX_SCREENSHOT_PIXELS, MAX_SCREENSHOT_SIDE } from '../wire/submit-limits.js';

/**
 * Pixel dimensions read from an image's header, without decoding it. Decoders allocate
 * width × height × 4 bytes whatever the file size: a 249 KB transparent PNG that claims
 * 8000 × 8000 costs pdfkit 1.1 GB and seconds of blocked event loop. Checking the header first
 * lets the submit route refuse such screenshots at the door and the PDF step leave them out.
 */
export interface ImageDimensions {
  width: number;
  height: number;
}

export { MAX_SCREENSHOT_PIXELS, MAX_SCREENSHOT_SIDE };

/** The image-size type each accepted MIME type must turn out to be. */
const IMAGE_SIZE_TYPES: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/**
 * image-size reads through a DataView over the whole underlying ArrayBuffer, so a view cut short
 * (a subarray, a pooled Buffer) would be read past its end: a truncated header would still be
 * sized from whatever bytes follow it. A copy of exactly the view's bytes ends where the image
 * does (`new Uint8Array(view)` copies; Buffer's `slice` would not).
 */
const ownBytes = (bytes: Uint8Array) => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes));

const isSide = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0;

/**
 * The width and height an image's header declares, for `image/png`, `image/jpeg` and
 * `image/webp`; null when the type is another or the header cannot be read (truncated, not
 * what the type says, a zero size). Cheap: image-size looks at the header bytes only.
 */
export function imageDimensions(bytes: Uint8Array, mimeType: string): ImageDimensions | null {
  const expected = IMAGE_SIZE_TYPES[mimeType.toLowerCase()];
  if (!expected || bytes.length === 0) return null;
  try {
    const { type, width, height } = imageSize(ownBytes(bytes));
    return type === expected && isSide(width) && isSide(height) ? { width, height } : null;
  } catch {
    // image-size throws on unknown types and on headers it cannot finish reading.
    return null;
  }
}

/** True when a screenshot of this size is within MAX_SCREENSHOT_PIXELS and MAX_SCREENSHOT_SIDE. */
export function isScreenshotSizeAllowed({ width, height }: ImageDimensions): boolean {
  return width <= MAX_SCREENSHOT_SIDE && height <= MAX_SCREENSHOT_SIDE && width * height <= MAX_SCREENSHOT_PIXELS;
}
