import { describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_COLOR, brandColorOf, formRows, optionRows, printable, renderRequestPdf } from '../../worker/pdf/render-request-pdf.js';
import { renderRequestPdfInThread } from '../../worker/pdf/render-in-thread.js';
import { jpeg, pdfText, png } from './submission-fixtures.js';

const baseInput = {
  requestId: 'req-9',
  projectName: 'Lamp',
  createdAt: new Date('2026-11-22T10:30:00Z'),
  formData: { name: 'Grace Hopper' },
  selectedOptions: {},
  configurationSummary: '',
};

/** A PNG whose header claims a size: what a decompression bomb looks like before it is decoded. */
function pngClaiming(width: number, height: number) {
  const bytes = png(2, 2);
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}

/** A baseline JPEG header claiming a size. */
function jpegClaiming(width: number, height: number) {
  const bytes = jpeg();
  bytes.writeUInt16BE(height, 7);
  bytes.writeUInt16BE(width, 9);
  return bytes;
}

const imageCount = (pdf: Buffer) => pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length ?? 0;

/** The request PDF's content rules, on small in-memory documents. */
describe('request PDF', () => {
  it('takes the brand colour from #rgb or #rrggbb and falls back otherwise', () => {
    expect(brandColorOf('#E11D48')).toBe('#e11d48');
    expect(brandColorOf('#0f8')).toBe('#00ff88');
    for (const bad of ['red', 'rgb(1,2,3)', 42, undefined, '#12345']) expect(brandColorOf(bad)).toBe(DEFAULT_BRAND_COLOR);
  });

  it('lists answers under their form labels in form order, then the rest', () => {
    const rows = formRows(
      [{ id: 'email', label: 'E-mail' }, { id: 'name', label: 'Name' }, { id: 'phone', label: 'Phone' }],
      { name: 'Ada', extra: ['a', 'b'], email: 'ada@example.com', consent: true },
    );
    expect(rows).toEqual([
      ['E-mail', 'ada@example.com'],
      ['Name', 'Ada'],
      ['extra', 'a, b'],
      ['consent', 'Yes'],
    ]);
  });

  it('names options by their block and choice, with prices', () => {
    const blocks = [{ id: 'wood', name: 'Wood', choices: [{ id: 'oak', label: 'Oak', price: 120 }, { id: 'ash', label: 'Ash' }] }];
    expect(optionRows(blocks, { wood: 'oak', legs: 'steel', extras: ['ash'] })).toEqual([
      ['Wood', 'Oak (120)'],
      ['legs', 'steel'],
      ['extras', 'ash'],
    ]);
  });

  it('keeps Latin-1 text and replaces what the standard fonts cannot print', () => {
    expect(printable('Jürgen “Jo” — café 日本')).toBe('Jürgen "Jo" - café ??');
  });

  it('renders every section, embeds PNG and JPEG, and lists what it cannot embed', async () => {
    const pdf = await renderRequestPdf({
      requestId: 'req-123',
      projectName: 'Lamp',
      createdAt: new Date('2026-11-22T10:30:00Z'),
      brandColor: '#ffcc00',
      formFields: [{ id: 'name', label: 'Full name' }],
      optionBlocks: [],
      formData: { name: 'Grace Hopper' },
      selectedOptions: {},
      configurationSummary: 'A tall lamp',
      screenshots: [
        { mimeType: 'image/png', data: png() },
        { mimeType: 'image/jpeg', data: jpeg() },
        { mimeType: 'image/webp', data: Buffer.from('RIFF....WEBP') },
        { mimeType: 'image/png', data: Buffer.from('not a png') },
      ],
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const expected of ['Lamp', 'req-123', '2026-11-22 10:30 UTC', 'Full name', 'Grace Hopper', 'No options were selected.', 'A tall lamp', 'Screenshot 1', 'Screenshot 2', 'Screenshot 3: WEBP image, attached to the e-mail.', 'Screenshot 4: the image could not be read.', 'page 1 of 1']) {
      expect(text).toContain(expected);
    }
    // The JPEG as it came (DCT), the RGBA PNG as an image with its alpha mask.
    const raw = pdf.toString('latin1');
    expect(raw.match(/\/Filter \/DCTDecode/g)).toHaveLength(1);
    expect(raw.match(/\/SMask/g)).toHaveLength(1);
  });

  it('leaves out screenshots whose header declares a size past the limits, without decoding them', async () => {
    const pdf = await renderRequestPdf({
      ...baseInput,
      screenshots: [
        { mimeType: 'image/png', data: pngClaiming(16000, 16000) },
        { mimeType: 'image/png', data: png(40, 30) },
        { mimeType: 'image/jpeg', data: jpegClaiming(9000, 100) },
        { mimeType: 'image/png', data: pngClaiming(4097, 4096) },
      ],
    });
    const text = pdfText(pdf);
    expect(text).toContain('Screenshot 1: not embedded (too large).');
    expect(text).toContain('Screenshot 3: not embedded (too large).');
    expect(text).toContain('Screenshot 4: not embedded (too large).');
    // Only the small one is in the document (with its alpha mask, also an image).
    expect(text).toContain('Screenshot 2');
    expect(text).not.toContain('Screenshot 2:');
    expect(imageCount(pdf)).toBe(2);
  });

  it('renders in a worker thread the same document, and stops a render that takes too long', async () => {
    const input = { ...baseInput, screenshots: [{ mimeType: 'image/png', data: png() }, { mimeType: 'image/png', data: pngClaiming(8000, 8000) }] };
    const pdf = await renderRequestPdfInThread(input);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const expected of ['Lamp', 'req-9', 'Grace Hopper', 'Screenshot 1', 'Screenshot 2: not embedded (too large).']) expect(text).toContain(expected);
    expect(imageCount(pdf)).toBe(2);
    // Starting a thread alone takes longer than a millisecond.
    await expect(renderRequestPdfInThread(input, { timeoutMs: 1 })).rejects.toThrow('took longer than 1 ms');
  });
});
