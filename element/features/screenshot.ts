import { MAX_SCREENSHOT_BYTES, MAX_SCREENSHOT_PIXELS, MAX_SCREENSHOT_SIDE } from '#core/wire/submit-limits.js';

/**
 * A PNG of the canvas drawn smaller until it fits the submit limits, so the server never refuses a screenshot the
 * element took. Outside the lazy viewer so that chunk shares no module with the entry.
 */
export function pngWithinLimits(canvas: HTMLCanvasElement): string {
  const { width, height } = canvas;
  let scale = Math.min(
    1,
    MAX_SCREENSHOT_SIDE / Math.max(width, height),
    Math.sqrt(MAX_SCREENSHOT_PIXELS / (width * height)),
  );
  for (;;) {
    let source = canvas;
    if (scale < 1) {
      source = document.createElement('canvas');
      source.width = Math.max(1, Math.floor(width * scale));
      source.height = Math.max(1, Math.floor(height * scale));
      source.getContext('2d')?.drawImage(canvas, 0, 0, source.width, source.height);
    }
    const url = source.toDataURL('image/png');
    // base64: 4 characters for 3 bytes.
    if ((url.length - url.indexOf(',') - 1) * 0.75 <= MAX_SCREENSHOT_BYTES || source.width <= 64) return url;
    scale /= 2;
  }
}
