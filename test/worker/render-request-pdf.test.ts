import { describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_COLOR, brandColorOf, formRows, optionRows, printable, renderRequestPdf } from '../../worker/pdf/render-request-pdf.js';
import { jpeg, pdfText, png } from './submission-fixtures.js';

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
});
