import { describe, expect, it } from 'vitest';
import { decodeImageDataUrl } from '#core/domain/submission-input.js';
import { png } from '../../worker/submission-fixtures.js';

/** Pictures sent as data URLs (screenshots, thumbnails, cart pictures): only canonical base64 is taken. */
const LIMITS = { maxBytes: 1_000_000, maxBytesText: '1 MB', maxSide: 4096, maxPixels: 16_777_216 };
const decode = (payload: string) => () => decodeImageDataUrl(`data:image/png;base64,${payload}`, 'body.image', LIMITS);

describe('decodeImageDataUrl', () => {
  const good = png(16, 12).toString('base64');

  it('takes a PNG in base64 and gives back its bytes', () => {
    expect(decode(good)().data.equals(png(16, 12))).toBe(true);
  });

  it('refuses text that is not canonical base64, naming the field', () => {
    const broken = [
      `${good.slice(0, 8)} ${good.slice(9)}`, // a space for a character
      `${good.slice(0, 8)}*${good.slice(9)}`, // a character outside the alphabet
      good.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''), // base64url
      good.slice(0, -1), // cut short
      `${good}====`, // padding too long
    ];
    for (const payload of broken)
      expect(decode(payload), payload.slice(-12)).toThrow(/body\.image is not valid base64/);
  });
});
