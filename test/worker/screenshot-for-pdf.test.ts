import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { SCREENSHOT_FOR_PDF_DEFAULTS, screenshotForPdf } from '../../worker/pdf/screenshot-for-pdf.js';
import { jpeg, png, webp } from './submission-fixtures.js';

/** A solid image of any size, encoded by sharp. */
const solid = (width: number, height: number, format: 'png' | 'jpeg' | 'webp' = 'png') =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 150 } } })
    .toFormat(format)
    .toBuffer();

async function converted(input: Buffer) {
  const out = await screenshotForPdf(input);
  expect(out).not.toBeNull();
  const meta = await sharp(out!).metadata();
  expect(meta.format).toBe('jpeg');
  return { out: out!, meta };
}

/** The screenshot conversion the PDF step applies before rendering. */
describe('screenshotForPdf', () => {
  it('makes PNG, JPEG and WebP a JPEG, without enlarging small ones', async () => {
    for (const input of [png(8, 6), jpeg(), webp()]) {
      const { meta } = await converted(input);
      expect([meta.width, meta.height]).toEqual([8, 6]);
    }
  });

  it(`fits large ones inside ${SCREENSHOT_FOR_PDF_DEFAULTS.maxSide} px a side, keeping the aspect ratio`, async () => {
    expect((await converted(await solid(4000, 3000))).meta).toMatchObject({ width: 1600, height: 1200 });
    expect((await converted(await solid(1000, 4000, 'webp'))).meta).toMatchObject({ width: 400, height: 1600 });
    expect((await converted(await solid(8192, 2048, 'jpeg'))).meta).toMatchObject({ width: 1600, height: 400 });
  });

  it('turns a photo upright by its EXIF orientation and drops the metadata', async () => {
    const sideways = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#808080' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(sideways).metadata()).orientation).toBe(6);
    const { meta } = await converted(sideways);
    expect([meta.width, meta.height]).toEqual([20, 40]);
    expect(meta.orientation).toBeUndefined();
  });

  it('puts transparency on white', async () => {
    const clear = await sharp({
      create: { width: 16, height: 16, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .webp({ lossless: true })
      .toBuffer();
    const { out } = await converted(clear);
    const { data, info } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    for (const value of data) expect(value).toBeGreaterThan(250);
  });

  it('gives null, never throws, for what it cannot decode or may not', async () => {
    const corruptPng = png(8, 6);
    corruptPng.fill(0x55, 37, corruptPng.length - 12); // the image data, past IHDR
    const corruptWebp = Buffer.concat([webp().subarray(0, 25), Buffer.alloc(40, 0xaa)]);
    corruptWebp.writeUInt32LE(corruptWebp.length - 8, 4);
    const tooManyPixels = await sharp({ create: { width: 4097, height: 4096, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    for (const input of [
      Buffer.from('not an image'),
      Buffer.alloc(0),
      corruptPng,
      corruptWebp,
      jpeg().subarray(0, 200),
      tooManyPixels,
    ]) {
      expect(await screenshotForPdf(input)).toBeNull();
    }
    // The pixel limit is an option: the same file within a higher one converts.
    expect(await screenshotForPdf(tooManyPixels, { maxInputPixels: 4097 * 4096 })).not.toBeNull();
  });
});
