import sharp from 'sharp';

/**
 * A fetched logo as the request PDF embeds it: any image sharp reads (PNG, JPEG, WebP, GIF, AVIF, SVG),
 * drawn as a PNG of at most 800 × 400 px, transparency kept; null for anything else. SVG is rasterised
 * from memory, where librsvg loads no external resource.
 */
const MAX_WIDTH = 800;
const MAX_HEIGHT = 400;
/** A header claiming more pixels is not decoded (a decompression bomb). */
const MAX_INPUT_PIXELS = 4096 * 4096;
/** 72 dpi is one SVG unit per pixel; bounded so a tiny viewBox is not drawn at absurd size. */
const MAX_SVG_DENSITY = 2400;

export async function logoForPdf(data: Buffer): Promise<Buffer | null> {
  try {
    const meta = await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!meta.width || !meta.height) return null;
    // A vector logo is drawn at the size it is shown at, not at its nominal one.
    const scale = Math.min(MAX_WIDTH / meta.width, MAX_HEIGHT / meta.height);
    const density = meta.format === 'svg' ? Math.min(MAX_SVG_DENSITY, Math.max(1, 72 * scale)) : undefined;
    return await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, density, animated: false, failOn: 'error' })
      .resize(MAX_WIDTH, MAX_HEIGHT, { fit: 'inside', withoutEnlargement: true })
      .png()
      .timeout({ seconds: 10 })
      .toBuffer();
  } catch {
    return null;
  }
}
