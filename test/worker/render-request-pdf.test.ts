import { afterAll, describe, expect, it } from 'vitest';
import { renderRequestPdf } from '../../worker/pdf/render-request-pdf.js';
import { DEFAULT_BRAND_COLOR, brandColorOf, textColorOnWhite } from '../../worker/pdf/brand-color.js';
import { MAX_VALUE_CHARS, printable } from '../../worker/pdf/printable.js';
import { formRows, type RequestRows } from '../../worker/pdf/request-rows.js';
import { renderRequestPdfInPool } from '../../worker/pdf/render-in-pool.js';
import { createCpuPool } from '#core/platform/cpu-pool.js';
import { jpeg, png } from './submission-fixtures.js';
import { pdfText } from '../helpers/pdf-text.js';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';

/** The fonts a PDF names (`/BaseFont`), e.g. `ABCDEF+DejaVuSans` for an embedded subset. */
const baseFonts = (pdf: Buffer) =>
  [...new Set([...pdf.toString('latin1').matchAll(/\/BaseFont \/(\S+)/g)].map((m) => m[1]))].sort();

/** What request-rows.ts hands the renderer, for a request without options or price. */
const baseRows: RequestRows = {
  locale: 'en',
  companyName: 'Lamp',
  projectName: 'Lamp',
  requestId: 'req-9',
  date: 'November 22, 2026 at 10:30 AM UTC',
  customer: [['Name', 'Grace Hopper']],
  options: [],
  price: null,
  visitorSaw: null,
  summary: '',
};
const withRows = (rows: Partial<RequestRows>) => ({ ...baseRows, ...rows });
const baseInput = { rows: baseRows };

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
    // Headings take the brand colour only where it reads on white.
    expect(textColorOnWhite('#1f3a5f', '#000000')).toBe('#1f3a5f');
    expect(textColorOnWhite('#ffcc00', '#000000')).toBe('#000000');
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
      rows: withRows({ customer: [['Name', huge]], summary: huge.slice(0, 20_000) }),
      screenshots: [],
    });
    const text = (await pdfText(pdf)).replace(/\u200b/g, '');
    expect(text).toContain(`(shortened: ${200_000 - MAX_VALUE_CHARS} more characters)`);
    expect(text.split('Z').length - 1).toBe(MAX_VALUE_CHARS + 20_000);
  }, 60_000);

  it('prints the euro sign, Central European, Greek and Cyrillic text as typed, in embedded DejaVu Sans', async () => {
    const pdf = await renderRequestPdf({
      rows: withRows({
        companyName: 'Chaise Ωμέγα',
        customer: [
          ['Name', 'Łukasz Dvořák'],
          ['Город', 'Київ'],
        ],
        options: [{ block: 'Holz – Wood', choice: 'Eiche „natur“', price: '+€120.00' }],
        price: { lines: [['Holz – Wood: Eiche „natur“', '€1,234.00']], total: ['Total', '€1,234.00'], taxNote: null },
        summary: 'Ωμέγα Привет',
      }),
      screenshots: [],
    });
    const text = await pdfText(pdf);
    for (const expected of [
      'Chaise Ωμέγα',
      'Łukasz Dvořák',
      'Город',
      'Київ',
      'Holz – Wood',
      'Eiche „natur“',
      '+€120.00',
      '€1,234.00',
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
      rows: withRows({
        companyName: `日本 ${mixed}`,
        customer: [
          ['Name', mixed],
          ['bidi', '\u202eevil\u202c \u200b\u200d\ufeff'],
        ],
        summary: `${mixed}\n${mixed}`,
      }),
      screenshots: [],
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    for (const expected of ['Emoji', '❤', 'CJK', 'Arabic', 'Hebrew', 'combining', 'Z', 'surrogate', 'Page 1 of 1'])
      expect(text).toContain(expected);
    // Glyph 0 (the box for a missing glyph) is declared 600/1000 em wide, as pdfkit measured it,
    // not DejaVu's 1229 font units, which would push lines with CJK or emoji past the margin.
    const widths = [...pdf.toString('latin1').matchAll(/\/W \[0 \[([\d.]+)/g)].map((m) => Number(m[1]));
    expect(widths.length).toBeGreaterThan(0);
    for (const width of widths) expect(width).toBeCloseTo(600, 0);
  });

  it('renders every section, embeds PNG and JPEG, and lists what it cannot embed', async () => {
    const pdf = await renderRequestPdf({
      rows: withRows({ requestId: 'req-123', customer: [['Full name', 'Grace Hopper']] }),
      brandColor: '#ffcc00',
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
      'Quote request',
      'req-123',
      'November 22, 2026 at 10:30 AM UTC',
      'Full name',
      'Grace Hopper',
      'Configuration: Lamp',
      'No options were selected.',
      'Preview',
      'Screenshot 1',
      'Screenshot 2',
      'Screenshot 3: WEBP image, not embedded.',
      'Screenshot 4: the image could not be read.',
      'Screenshot 5: the image could not be read.',
      'Page 1 of 1',
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
      logo: jpeg(),
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
      await renderRequestPdfInPool(pool, { ...input, rows: withRows({ summary: 'Total: €1,234.00 – Łukasz' }) }),
    );
    expect(euro).toContain('Total: €1,234.00 – Łukasz');
    // The logo (a JPEG, as it came) and the screenshot with its alpha mask.
    expect(imageCount(pdf)).toBe(3);
    // Rendering takes longer than a millisecond.
    await expect(renderRequestPdfInPool(pool, input, { timeoutMs: 1 })).rejects.toThrow('took longer than 1 ms');
  });
});

/** A quote a merchant forwards as it is: who sends it, what was chosen at what price, nothing said twice. */
describe('the request PDF as a quote', () => {
  const priced = withRows({
    companyName: 'Stool & Co.',
    projectName: 'Stool',
    customer: [
      ['Full name', 'Ada Lovelace'],
      ['E-mail address', 'ada@example.com'],
    ],
    options: [
      { block: 'Seat', choice: 'Oak', price: null },
      { block: 'Legs', choice: 'Brass', price: '+€25.00' },
    ],
    price: {
      lines: [
        ['Base price', '€149.00'],
        ['Legs: Brass', '€25.00'],
      ],
      total: ['Total', '€174.00'],
      taxNote: 'Includes VAT (19%): €27.78',
    },
    summary: 'Seat: Oak, Legs: Brass, total €174.00',
  });

  it('names the merchant, lists the options in order with their prices, the totals, and not the summary', async () => {
    const text = await pdfText(await renderRequestPdf({ rows: priced, screenshots: [] }));
    for (const expected of [
      'Stool & Co.',
      'Quote request',
      'Configuration: Stool',
      'Base price',
      '€149.00',
      'Total',
      '€174.00',
      'Includes VAT (19%): €27.78',
      'Stool & Co. · Quote request req-9 · Page 1 of 1',
    ])
      expect(text).toContain(expected);
    // Block order, each choice with its delta beside it.
    expect(text).toMatch(/Seat\s*Oak\s*Legs\s*Brass\s*\+€25\.00/);
    // The options are listed: the page's summary would only say them again.
    expect(text).not.toContain('Seat: Oak, Legs: Brass');
  });

  it('prints a long company name whole in the header and shortened in the footer line', async () => {
    const name = `Stool ${'and Sons '.repeat(20)}Ltd`;
    const text = await pdfText(await renderRequestPdf({ rows: { ...priced, companyName: name }, screenshots: [] }));
    expect(text.replace(/\s+/g, ' ')).toContain(name.replace(/\s+/g, ' ').trim());
    expect(text).toContain(`${Array.from(name).slice(0, 49).join('')}… · Quote request req-9 · Page 1 of 1`);
  });

  it('prints the summary in their place when the request has no options', async () => {
    const text = await pdfText(await renderRequestPdf({ rows: { ...priced, options: [] }, screenshots: [] }));
    expect(text).toContain('Seat: Oak, Legs: Brass, total €174.00');
  });

  it('shows the logo it is given, and none without', async () => {
    const logo = png(120, 40);
    // The logo and its alpha mask.
    expect(imageCount(await renderRequestPdf({ rows: priced, logo, screenshots: [] }))).toBe(2);
    expect(imageCount(await renderRequestPdf({ rows: priced, logo: null, screenshots: [] }))).toBe(0);
    // Bytes pdfkit cannot read: the document still renders, without a logo.
    const broken = await renderRequestPdf({ rows: priced, logo: Buffer.from('not an image'), screenshots: [] });
    expect(imageCount(broken)).toBe(0);
    expect(await pdfText(broken)).toContain('Stool & Co.');
  });

  /** Each page's text lines, top to bottom (pdf.js's y grows upwards), without the footer. */
  async function pageLines(pdf: Buffer): Promise<string[][]> {
    const document = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, verbosity: 0 }).promise;
    try {
      const pages: string[][] = [];
      for (let number = 1; number <= document.numPages; number++) {
        const { items } = await (await document.getPage(number)).getTextContent();
        const lines = new Map<number, string>();
        for (const item of items) {
          if (!('str' in item) || !item.str.trim()) continue;
          const y = Math.round(item.transform[5]);
          // The footer sits 34 pt above the page's foot.
          if (y < 45) continue;
          lines.set(y, `${lines.get(y) ?? ''}${item.str}`);
        }
        pages.push([...lines.entries()].sort((a, b) => b[0] - a[0]).map(([, line]) => line));
      }
      return pages;
    } finally {
      await document.destroy();
    }
  }

  it('never leaves a heading alone at the foot of a page, wherever the answers end', async () => {
    const headings = ['Customer', 'Configuration: Stool', 'Price', 'Preview'];
    const shot = await sharp({ create: { width: 800, height: 500, channels: 3, background: '#c8a165' } })
      .jpeg()
      .toBuffer();
    let pageBreaks = 0;
    // From 20 to 52 answers, page 1 ends after every heading and every part of what follows it.
    for (let answers = 20; answers <= 52; answers++) {
      const customer = Array.from(
        { length: answers },
        (_, i) => [`Answer ${i + 1}`, `Value ${i + 1}`] as [string, string],
      );
      const pdf = await renderRequestPdf({
        rows: { ...priced, customer },
        // Two, so each has a caption: text after the heading on the page it lands on.
        screenshots: [
          { mimeType: 'image/jpeg', data: shot },
          { mimeType: 'image/jpeg', data: shot },
        ],
      });
      const pages = await pageLines(pdf);
      pageBreaks += pages.length - 1;
      pages.forEach((lines, index) => {
        const last = lines.at(-1)!;
        expect(headings, `${answers} answers, foot of page ${index + 1}: ${last}`).not.toContain(last);
        // The options' column titles stay with their first row too.
        expect(last, `${answers} answers, page ${index + 1}`).not.toMatch(/^OPTION/);
      });
    }
    expect(pageBreaks).toBeGreaterThan(20);
  }, 60_000);
});
