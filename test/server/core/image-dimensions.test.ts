import { describe, expect, it } from 'vitest';
import {
  MAX_SCREENSHOT_PIXELS,
  MAX_SCREENSHOT_SIDE,
  imageDimensions,
  isScreenshotSizeAllowed,
} from '#core/domain/image-dimensions.js';
import { makePng } from '../../helpers/model-fixtures.js';

/** Header-only sizes of the three screenshot types, and the screenshot limits. */

/** A PNG that claims a size: signature and IHDR only, which is all a decoder sizes its buffers from. */
function pngHeader(width: number, height: number) {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b[24] = 8;
  b[25] = 6;
  return b;
}

const segment = (marker: number, body: number[]) => [
  0xff,
  marker,
  (body.length + 2) >> 8,
  (body.length + 2) & 0xff,
  ...body,
];

/** SOI, a JFIF APP0, a quantisation table, then the frame header (`sof`), a scan and EOI. */
function jpeg(width: number, height: number, sof = 0xc0, extra: number[] = []) {
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]),
    ...segment(0xdb, [0x00, ...new Array(64).fill(1)]),
    ...extra,
    ...segment(sof, [0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00]),
    ...segment(0xda, [0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]),
    0x00,
    0xff,
    0xd9,
  ]);
}

function riff(chunk: string, data: Buffer) {
  const body = Buffer.concat([Buffer.from(`WEBP${chunk}`, 'latin1'), Buffer.alloc(4), data]);
  body.writeUInt32LE(data.length, 8);
  const header = Buffer.alloc(8);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body]);
}

const vp8 = (width: number, height: number) => {
  const d = Buffer.alloc(10);
  d[0] = 0x30; // key frame (bit 0 clear), version 0, shown
  d.set([0x9d, 0x01, 0x2a], 3);
  d.writeUInt16LE(width, 6);
  d.writeUInt16LE(height, 8);
  return riff('VP8 ', d);
};
const vp8l = (width: number, height: number) => {
  const d = Buffer.alloc(5);
  d[0] = 0x2f;
  d.writeUInt32LE(((width - 1) | ((height - 1) << 14)) >>> 0, 1);
  return riff('VP8L', d);
};
const vp8x = (width: number, height: number) => {
  const d = Buffer.alloc(10);
  d[0] = 0x10; // alpha
  d.writeUIntLE(width - 1, 4, 3);
  d.writeUIntLE(height - 1, 7, 3);
  return riff('VP8X', d);
};

// Real 1x1 files, as browsers' WebP feature probes ship them (lossy, lossless, extended with alpha).
const REAL_WEBP = {
  lossy: 'UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA',
  lossless: 'UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==',
  alpha:
    'UklGRkoAAABXRUJQVlA4WAoAAAAQAAAAAAAAAAAAQUxQSAwAAAARBxAR/Q9ERP8DAABWUDggGAAAABQBAJ0BKgEAAQAAAP4AAA3AAP7mtQAAAA==',
};

describe('imageDimensions', () => {
  it('reads PNG sizes from IHDR, including sizes far past what a decoder should attempt', () => {
    expect(imageDimensions(makePng(8, 6), 'image/png')).toEqual({ width: 8, height: 6 });
    expect(imageDimensions(pngHeader(16000, 16000), 'image/png')).toEqual({ width: 16000, height: 16000 });
    expect(imageDimensions(pngHeader(0x80000000, 1), 'image/png')).toEqual({ width: 0x80000000, height: 1 });
  });

  it('reads JPEG sizes from the frame header after other segments, for baseline and progressive frames', () => {
    expect(imageDimensions(jpeg(640, 480), 'image/jpeg')).toEqual({ width: 640, height: 480 });
    expect(imageDimensions(jpeg(9000, 300, 0xc2), 'image/jpeg')).toEqual({ width: 9000, height: 300 });
    // A Huffman table (C4, not a frame) before the frame, and fill bytes before a marker.
    const withTable = jpeg(12, 34, 0xc1, [...segment(0xc4, [0x00, ...new Array(16).fill(0)]), 0xff, 0xff]);
    expect(imageDimensions(withTable, 'image/jpeg')).toEqual({ width: 12, height: 34 });
  });

  it('reads WebP sizes from VP8, VP8L and VP8X headers', () => {
    expect(imageDimensions(vp8(1920, 1080), 'image/webp')).toEqual({ width: 1920, height: 1080 });
    expect(imageDimensions(vp8l(16384, 3), 'image/webp')).toEqual({ width: 16384, height: 3 });
    expect(imageDimensions(vp8x(20000, 12000), 'image/webp')).toEqual({ width: 20000, height: 12000 });
    for (const file of Object.values(REAL_WEBP))
      expect(imageDimensions(Buffer.from(file, 'base64'), 'image/webp')).toEqual({ width: 1, height: 1 });
  });

  it('answers null for what it cannot size: other types, truncated or mislabelled bytes, zero sizes', () => {
    expect(imageDimensions(makePng(2, 2), 'image/gif')).toBeNull();
    expect(imageDimensions(makePng(2, 2), 'image/jpeg')).toBeNull();
    expect(imageDimensions(pngHeader(10, 10).subarray(0, 20), 'image/png')).toBeNull();
    expect(imageDimensions(pngHeader(0, 10), 'image/png')).toBeNull();
    expect(imageDimensions(Buffer.from('not a png at all, but long enough'), 'image/png')).toBeNull();
    // Scan before any frame header; a frame of height 0 (defined later by DNL); cut short.
    expect(
      imageDimensions(Buffer.from([0xff, 0xd8, ...segment(0xda, [1, 1, 0, 0, 0x3f, 0]), 0xff, 0xd9]), 'image/jpeg'),
    ).toBeNull();
    expect(imageDimensions(jpeg(10, 0), 'image/jpeg')).toBeNull();
    expect(imageDimensions(jpeg(10, 10).subarray(0, 30), 'image/jpeg')).toBeNull();
    expect(imageDimensions(Buffer.from('RIFF....WEBP'), 'image/webp')).toBeNull();
    expect(imageDimensions(vp8(10, 10).subarray(0, 25), 'image/webp')).toBeNull();
    expect(imageDimensions(riff('ALPH', Buffer.alloc(10)), 'image/webp')).toBeNull();
    expect(imageDimensions(Buffer.alloc(0), 'image/png')).toBeNull();
  });
});

describe('screenshot limits', () => {
  it('allow up to 4096 x 4096 pixels, and no side past 8192', () => {
    expect(MAX_SCREENSHOT_PIXELS).toBe(4096 * 4096);
    expect(MAX_SCREENSHOT_SIDE).toBe(8192);
    expect(isScreenshotSizeAllowed({ width: 4096, height: 4096 })).toBe(true);
    expect(isScreenshotSizeAllowed({ width: 8192, height: 2048 })).toBe(true);
    expect(isScreenshotSizeAllowed({ width: 4097, height: 4096 })).toBe(false);
    expect(isScreenshotSizeAllowed({ width: 8193, height: 10 })).toBe(false);
    expect(isScreenshotSizeAllowed({ width: 10, height: 8193 })).toBe(false);
    expect(isScreenshotSizeAllowed({ width: 8000, height: 8000 })).toBe(false);
  });
});
