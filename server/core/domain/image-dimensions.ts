import { MAX_SCREENSHOT_PIXELS, MAX_SCREENSHOT_SIDE } from '../wire/submit-limits.js';

/**
 * Pixel dimensions from an image's header: decoders allocate width × height × 4 bytes whatever the file size.
 * Hand-written because image-size cannot read 0xFF fill bytes before a JPEG marker (ITU T.81 B.1.1.2).
 */
export interface ImageDimensions {
  width: number;
  height: number;
}

export { MAX_SCREENSHOT_PIXELS, MAX_SCREENSHOT_SIDE };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]);

const valid = (width: number, height: number): ImageDimensions | null =>
  width > 0 && height > 0 ? { width, height } : null;

/** PNG: the IHDR chunk always comes first; width and height are bytes 16..24, big-endian. */
function pngDimensions(b: Uint8Array): ImageDimensions | null {
  if (b.length < 24 || !PNG_SIGNATURE.every((byte, i) => b[i] === byte) || ascii(b, 12, 16) !== 'IHDR') return null;
  return valid(u32be(b, 16), u32be(b, 20));
}

/** JPEG start-of-frame markers (C0..CF except DHT C4, JPG C8 and DAC CC) carry the frame size. */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** JPEG: walks the marker segments up to the first SOFn (height, then width, big-endian). */
function jpegDimensions(b: Uint8Array): ImageDimensions | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  while (i < b.length) {
    if (b[i] !== 0xff) return null;
    // Any number of 0xFF fill bytes may precede a marker.
    while (i < b.length && b[i] === 0xff) i++;
    if (i >= b.length) return null;
    const marker = b[i++];
    // Markers without a length: TEM and the restart markers.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    // End of image, or the scan starts, before any frame header.
    if (marker === 0xd9 || marker === 0xda) return null;
    if (i + 2 > b.length) return null;
    const length = u16be(b, i);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (length < 7 || i + 7 > b.length) return null;
      // A zero height is defined later by a DNL marker, which pdfkit cannot size either.
      return valid(u16be(b, i + 5), u16be(b, i + 3));
    }
    i += length;
  }
  return null;
}

/** WebP: a RIFF container whose first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended). */
function webpDimensions(b: Uint8Array): ImageDimensions | null {
  if (b.length < 20 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 12) !== 'WEBP') return null;
  const chunk = ascii(b, 12, 16);
  const data = 20;
  const has = (n: number) => b.length >= data + n;
  if (chunk === 'VP8 ') {
    if (!has(10)) return null;
    // Frame tag (3 bytes, bit 0 clear on a key frame), start code 9D 01 2A, 14-bit sizes.
    if ((b[data] & 1) !== 0 || b[data + 3] !== 0x9d || b[data + 4] !== 0x01 || b[data + 5] !== 0x2a) return null;
    return valid(u16le(b, data + 6) & 0x3fff, u16le(b, data + 8) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    // Signature 0x2F, then width - 1 and height - 1 in 14 bits each, least significant first.
    if (!has(5) || b[data] !== 0x2f) return null;
    const bits = b[data + 1] | (b[data + 2] << 8) | (b[data + 3] << 16) | (b[data + 4] << 24);
    return valid((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') {
    // Flags and reserved bytes, then canvas width - 1 and height - 1 in 24 bits each.
    if (!has(10)) return null;
    return valid(u24le(b, data + 4) + 1, u24le(b, data + 7) + 1);
  }
  return null;
}

/**
 * The width and height a PNG, JPEG or WebP header declares; null for another type, an unreadable header
 * or a zero size.
 */
export function imageDimensions(bytes: Uint8Array, mimeType: string): ImageDimensions | null {
  switch (mimeType.toLowerCase()) {
    case 'image/png':
      return pngDimensions(bytes);
    case 'image/jpeg':
      return jpegDimensions(bytes);
    case 'image/webp':
      return webpDimensions(bytes);
    default:
      return null;
  }
}

/** True when a screenshot of this size is within MAX_SCREENSHOT_PIXELS and MAX_SCREENSHOT_SIDE. */
export function isScreenshotSizeAllowed({ width, height }: ImageDimensions): boolean {
  return width <= MAX_SCREENSHOT_SIDE && height <= MAX_SCREENSHOT_SIDE && width * height <= MAX_SCREENSHOT_PIXELS;
}
