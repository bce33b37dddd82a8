import { afterAll, describe, expect, it } from 'vitest';
import { renderRequestPdf } from '../../worker/pdf/render-request-pdf.js';
import { DEFAULT_BRAND_COLOR, brandColorOf } from '../../worker/pdf/brand-color.js';
import { MAX_VALUE_CHARS, printable } from '../../worker/pdf/printable.js';
import { formRows, optionRows } from '../../worker/pdf/request-rows.js';
import { renderRequestPdfInPool } from '../../worker/pdf/render-in-pool.js';
import { createCpuPool } from '../../server/core/platform/cpu-pool.js';
import { jpeg, png } from './submission-fixtures.js';
import { pdfText } from '../helpers/pdf-text.js';

/** The fonts a PDF names (`/BaseFont`), e.g. `ABCDEF+DejaVuSans` for an embedded subset. */
const baseFonts = (pdf: Buffer) =>
  [...new Set([...pdf.toString('latin1').matchAll(/\/BaseFont \/(\S+)/g)].map((m) => m[1]))].sort();

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

/** A baseline JPEG whose frame header (SOF0) claims a size. */
function jpegClaiming(width: number, height: number) {
  const bytes = jpeg();
  const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
  bytes.writeUInt16BE(height, sof + 5);
  bytes.writeUInt16BE(width, sof + 7);
  return bytes;
}

/** The pool the worker renders in, with two threads as an operator might configure. */
const pool = createCpuPool({ threads: 2 });
afterAll(() => pool.close());

const imageCount = (pdf: Buffer) => pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length ?? 0;

/** The request PDF's content rules, on small in-memory documents. */
describe('request PDF', () => {
  it('takes the brand colour from #rgb or #rrggbb and falls back otherwise', () => {
    expect(brandColorOf('#E11D48')).toBe('#e11d48');
    expect(brandColorOf('#0f8')).toBe('#00ff88');
    for (const bad of ['red', 'rgb(1,2,3)', 42, undefined, '#12345'])
      expect(brandColorOf(bad)).toBe(DEFAULT_BRAND_COLOR);
  });

  it('lists answers under their form labels in form order, then the rest', () => {
    const rows = formRows(
      [
        { id: 'email', label: 'E-mail' },
        { id: 'name', label: 'Name' },
        { id: 'phone', label: 'Phone' },
      ],
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
    const blocks = [
      {
        id: 'wood',
        name: 'Wood',
        choices: [
          { id: 'oak', label: 'Oak', price: 120 },
          { id: 'ash', label: 'Ash' },
        ],
      },
    ];
    expect(optionRows(blocks, { wood: 'oak', legs: 'steel', extras: ['ash'] })).toEqual([
      ['Wood', 'Oak (120)'],
      ['legs', 'steel'],
      ['extras', 'ash'],
    ]);
    // In the project's currency when it names one Intl knows; a plain number otherwise.
    expect(optionRows(blocks, { wood: 'oak' }, 'EUR')).toEqual([['Wood', 'Oak (€120.00)']]);
    expect(optionRows(blocks, { wood: 'oak' }, 'usd')).toEqual([['Wood', 'Oak ($120.00)']]);
    expect(optionRows(blocks, { wood: 'oak' }, 'euros')).toEqual([['Wood', 'Oak (120)']]);
    expect(optionRows(blocks, { wood: 'oak' }, 'ZZZ')).toEqual([['Wood', 'Oak (ZZZ\u00a0120.00)']]);
  });

  it('keeps every printable character and drops only control characters', () => {
    expect(printable('Jürgen “Jo” — café € Łódź Ωμέγα Привет 日本 👍 مرحبا')).toBe(
      'Jürgen “Jo” — café € Łódź Ωμέγα Привет 日本 👍 مرحبا',
    );
    // C0 and C1 controls and DEL go; line ends become \n and a tab spaces (DejaVu has no tab glyph).
    expect(printable('a\u0000b\u0007c\u001bd\u007fe\u0085f\u009fg')).toBe('abcdefg');
    expect(printable('one\r\ntwo\rthree\nfour\tfive')).toBe('one\ntwo\nthree\nfour    five');
  });

  it('gives long words places to wrap and shortens overlong answers with a note', () => {
    const word = 'x'.repeat(100);
    expect(printable(word).split('\u200b')).toEqual(['x'.repeat(40), 'x'.repeat(40), 'x'.repeat(20)]);
    expect(printable(`short words stay ${'y'.repeat(40)} whole`)).toBe(`short words stay ${'y'.repeat(40)} whole`);
    const long = printable('a '.repeat(MAX_VALUE_CHARS));
    expect(long.startsWith('a '.repeat(MAX_VALUE_CHARS / 2))).toBe(true);
    expect(long.endsWith(`… (shortened: ${MAX_VALUE_CHARS} more characters)`)).toBe(true);
  });

  it('renders in the CPU pool, in its time limit, a request whose answer and summary are one huge word', async () => {
    const huge = 'Z'.repeat(200_000);
    const pdf = await renderRequestPdfInPool(pool, {
      ...baseInput,
      formData: { name: huge },
      configurationSummary: huge.slice(0, 20_000),
      screenshots: [],
    });
    const text = (await pdfText(pdf)).replace(/\u200b/g, '');
    expect(text).toContain(`(shortened: ${200_000 - MAX_VALUE_CHARS} more characters)`);
    expect(text.split('Z').length - 1).toBe(MAX_VALUE_CHARS + 20_000);
  }, 60_000);

  it('prints the euro sign, Central European, Greek and Cyrillic text as typed, in embedded DejaVu Sans', async () => {
    const pdf = await renderRequestPdf({
      ...baseInput,
      projectName: 'Chaise Ωμέγα',
      formFields: [
        { id: 'name', label: 'Name' },
        { id: 'city', label: 'Город' },
      ],
      formData: { name: 'Łukasz Dvořák', city: 'Київ' },
      selectedOptions: { wood: 'oak' },
      optionBlocks: [{ id: 'wood', name: 'Holz – Wood', choices: [{ id: 'oak', label: 'Eiche „natur“', price: 120 }] }],
      configurationSummary: 'Total: €1,234.00\nΩμέγα Привет',
      screenshots: [],
    });
    const text = await pdfText(pdf);
    for (const expected of [
      'Chaise Ωμέγα',
      'Łukasz Dvořák',
      'Город',
      'Київ',
      'Holz – Wood',
      'Eiche „natur“ (120)',
      'Total: €1,234.00',
      'Ωμέγα Привет',
      'Configuration summary',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('?');
    // Regular and bold, each a subset of the glyphs used; no standard font is left.
    expect(baseFonts(pdf)).toEqual(
      [expect.stringMatching(/^[A-Z]{6}\+DejaVuSans$/), expect.stringMatching(/^[A-Z]{6}\+DejaVuSans-Bold$/)].sort(),
    );
    expect(pdf.length).toBeLessThan(60_000);
  });

  it('renders emoji, CJK, RTL Arabic and combining marks without throwing, missing glyphs as boxes', async () => {
    const mixed =
      'Emoji 👍🏽 👨‍👩‍👧 🇵🇱 ❤️, CJK 日本語 中文 한국어, Arabic مرحبا بالعالم, Hebrew שלום, ' +
      'combining e\u0301 n\u0303 Z̷̢͓a̸l̴g̵o̷, lone \ud800 surrogate';
    const pdf = await renderRequestPdf({
      ...baseInput,
      projectName: `日本 ${mixed}`,
      formData: { name: mixed, bidi: '\u202eevil\u202c \u200b\u200d\ufeff' },
      configurationSummary: `${mixed}\n${mixed}`,
      screenshots: [],
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    for (const expected of ['Emoji', '❤', 'CJK', 'Arabic', 'Hebrew', 'combining', 'Z', 'surrogate', 'page 1 of 1'])
      expect(text).toContain(expected);
    // Glyph 0 (the box for a missing glyph) is declared 600/1000 em wide, as pdfkit measured it,
    // not DejaVu's 1229 font units, which would push lines with CJK or emoji past the margin.
    const widths = [...pdf.toString('latin1').matchAll(/\/W \[0 \[([\d.]+)/g)].map((m) => Number(m[1]));
    expect(widths.length).toBeGreaterThan(0);
    for (const width of widths) expect(width).toBeCloseTo(600, 0);
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
        { mimeType: 'image/webp', data: null, unreadable: true },
      ],
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    for (const expected of [
      'Lamp',
      'req-123',
      '2026-11-22 10:30 UTC',
      'Full name',
      'Grace Hopper',
      'No options were selected.',
      'A tall lamp',
      'Screenshot 1',
      'Screenshot 2',
      'Screenshot 3: WEBP image, not embedded.',
      'Screenshot 4: the image could not be read.',
      'Screenshot 5: the image could not be read.',
      'page 1 of 1',
    ]) {
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
    const text = await pdfText(pdf);
    expect(text).toContain('Screenshot 1: not embedded (too large).');
    expect(text).toContain('Screenshot 3: not embedded (too large).');
    expect(text).toContain('Screenshot 4: not embedded (too large).');
    // Only the small one is in the document (with its alpha mask, also an image).
    expect(text).toContain('Screenshot 2');
    expect(text).not.toContain('Screenshot 2:');
    expect(imageCount(pdf)).toBe(2);
  });

  it('renders in the CPU pool the same document, and stops a render that takes too long', async () => {
    const input = {
      ...baseInput,
      screenshots: [
        { mimeType: 'image/png', data: png() },
        { mimeType: 'image/png', data: pngClaiming(8000, 8000) },
      ],
    };
    const pdf = await renderRequestPdfInPool(pool, input);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    for (const expected of ['Lamp', 'req-9', 'Grace Hopper', 'Screenshot 1', 'Screenshot 2: not embedded (too large).'])
      expect(text).toContain(expected);
    // The thread finds the font files too.
    const euro = await pdfText(
      await renderRequestPdfInPool(pool, { ...input, configurationSummary: 'Total: €1,234.00 – Łukasz' }),
    );
    expect(euro).toContain('Total: €1,234.00 – Łukasz');
    expect(imageCount(pdf)).toBe(2);
    // Rendering takes longer than a millisecond.
    await expect(renderRequestPdfInPool(pool, input, { timeoutMs: 1 })).rejects.toThrow('took longer than 1 ms');
  });
});
