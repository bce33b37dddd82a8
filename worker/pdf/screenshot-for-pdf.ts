import pLimit from 'p-limit';
import sharp from 'sharp';
import { MAX_SCREENSHOT_PIXELS } from '#core/domain/image-dimensions.js';

export interface ScreenshotForPdfOptions {
  /** Longest side in pixels; smaller screenshots are not enlarged (default 1600). */
  maxSide?: number;
  /** JPEG quality, 1 to 100 (default 85). */
  quality?: number;
  /** A screenshot with more pixels is not decoded (default 4096 × 4096, the submit limit). */
  maxInputPixels?: number;
  /** A conversion still running after this long is given up (default 30 s). */
  timeoutSeconds?: number;
}

export const SCREENSHOT_FOR_PDF_DEFAULTS = {
  maxSide: 1600,
  quality: 85,
  maxInputPixels: MAX_SCREENSHOT_PIXELS,
  timeoutSeconds: 30,
} as const;

/** Conversions at once in this process: each holds a libuv thread; file reads and DNS need the rest (4 by default). */
const MAX_CONCURRENT_CONVERSIONS = 2;

// Every screenshot is decoded once: libvips' operation cache would only hold memory.
sharp.cache(false);
// One thread per conversion: the worker runs several jobs at once on few cores.
sharp.concurrency(1);
// One queue per process: the threads it protects are the process's.
const slots = pLimit(MAX_CONCURRENT_CONVERSIONS);

/** A screenshot as the request PDF embeds it (upright by EXIF, within maxSide, on white, JPEG); null if undecodable. */
export function screenshotForPdf(data: Buffer, options: ScreenshotForPdfOptions = {}): Promise<Buffer | null> {
  const { maxSide, quality, maxInputPixels, timeoutSeconds } = { ...SCREENSHOT_FOR_PDF_DEFAULTS, ...options };
  return slots(async () => {
    try {
      // failOn 'error': a slightly truncated JPEG still shows what it has.
      return await sharp(data, { limitInputPixels: maxInputPixels, autoOrient: true, failOn: 'error' })
        .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality, mozjpeg: false })
        .timeout({ seconds: timeoutSeconds })
        .toBuffer();
    } catch {
      return null;
    }
  });
}
