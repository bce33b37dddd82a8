import { describe, expect, it } from 'vitest';
import { renderRequestPdf } from '../../worker/pdf/render-request-pdf.js';
import { formatClientPrice, priceRows } from '../../worker/pdf/price-rows.js';
import type { StoredPrice } from '#core/domain/request-price.js';
import { pdfText } from '../helpers/pdf-text.js';
import type { RequestRows } from '../../worker/pdf/request-rows.js';

/** The request's stored price as the PDF and the e-mail print it (docs/api.md, Background steps), never recomputed. */
const stored: StoredPrice = {
  currency: 'EUR',
  decimals: 2,
  subtotal: 18900,
  total: 37800,
  lines: [
    { id: 'base', kind: 'pricing', label: 'Base price', amount: 14900 },
    { id: 'seat.walnut', kind: 'option', label: 'Seat: Walnut', amount: 4000, blockId: 'seat', choiceId: 'walnut' },
    { id: 'formula.0', kind: 'formula', label: 'Quantity', amount: 18900 },
  ],
  tax: { label: 'VAT', rate: 0.19, included: true, amount: 6035 },
  ignored: [],
};

describe('price rows', () => {
  it('formats each line, the total and the included tax in the locale asked for', () => {
    expect(priceRows(stored, 'en')).toEqual({
      lines: [
        ['Base price', '€149.00'],
        ['Seat: Walnut', '€40.00'],
        ['Quantity', '€189.00'],
      ],
      total: ['Total', '€378.00'],
      taxNote: 'Includes VAT (19%): €60.35',
    });
    const german = priceRows(stored, 'de');
    expect(german.total[1]).toMatch(/^378,00\s€$/);
  });

  it('prints tax that is not included as its own line, with no note, and a line SKU beside its label', () => {
    const rows = priceRows(
      {
        ...stored,
        lines: [
          { id: 'seat.walnut', kind: 'option', label: 'Seat: Walnut', amount: 4000, sku: 'SEAT-WAL' },
          { id: 'tax', kind: 'tax', label: 'VAT', amount: 760 },
        ],
        total: 4760,
        tax: { label: 'VAT', rate: 0.19, included: false, amount: 760 },
      },
      'en',
    );
    expect(rows.lines).toEqual([
      ['Seat: Walnut (SKU SEAT-WAL)', '€40.00'],
      ['VAT', '€7.60'],
    ]);
    expect(rows.taxNote).toBeNull();
  });

  it("formats the page's figure in its own currency's digits", () => {
    expect(formatClientPrice({ total: 100, currency: 'EUR' }, 'en')).toBe('€1.00');
    expect(formatClientPrice({ total: 500, currency: 'JPY' }, 'en')).toBe('¥500');
    expect(formatClientPrice({ total: 1234, currency: null }, 'en')).toBe('12.34');
  });
});

describe('the PDF price section', () => {
  const rows: RequestRows = {
    locale: 'en',
    companyName: 'Stool',
    projectName: 'Stool',
    requestId: 'req-price',
    date: 'November 22, 2026 at 10:30 AM UTC',
    customer: [['Name', 'Grace Hopper']],
    options: [],
    price: null,
    visitorSaw: null,
    summary: '',
  };

  it('prints each line, the total and the tax note under Price', async () => {
    const text = await pdfText(
      await renderRequestPdf({ rows: { ...rows, price: priceRows(stored, 'en') }, screenshots: [] }),
    );
    for (const expected of [
      'Price',
      'Base price',
      '€149.00',
      'Seat: Walnut',
      '€40.00',
      'Total',
      '€378.00',
      'Includes VAT (19%): €60.35',
    ])
      expect(text).toContain(expected);
  });

  it('has no Price section without a price', async () => {
    const text = await pdfText(await renderRequestPdf({ rows, screenshots: [] }));
    expect(text).not.toContain('Total');
    expect(text).not.toMatch(/^Price$/m);
  });
});
