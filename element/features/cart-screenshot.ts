/** A cart line's picture: at most this wide (docs/cart.md), enough for a cart and an order e-mail. */
const CART_SCREENSHOT_MAX_WIDTH = 1024;
/** The configurations route takes a screenshot of at most 1 MB decoded. */
const CART_SCREENSHOT_MAX_BYTES = 1_000_000;

/**
 * A PNG data URL of the drawn scene at most {@link CART_SCREENSHOT_MAX_WIDTH} px wide and within the route's 1 MB,
 * halved until it fits (a busy scene at full width can exceed it). Read the canvas at once after drawing it.
 */
export function cartScreenshot(canvas: HTMLCanvasElement): string | null {
  const { width, height } = canvas;
  if (width < 1 || height < 1) return null;
  let scale = Math.min(1, CART_SCREENSHOT_MAX_WIDTH / width);
  for (;;) {
    const copy = document.createElement('canvas');
    copy.width = Math.max(1, Math.floor(width * scale));
    copy.height = Math.max(1, Math.floor(height * scale));
    copy.getContext('2d')?.drawImage(canvas, 0, 0, copy.width, copy.height);
    const url = copy.toDataURL('image/png');
    // base64: 4 characters for 3 bytes.
    if ((url.length - url.indexOf(',') - 1) * 0.75 <= CART_SCREENSHOT_MAX_BYTES) return url;
    if (copy.width <= 64) return null;
    scale /= 2;
  }
}
