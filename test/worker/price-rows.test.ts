import { describe, expect, it } from 'vitest';
import { renderRequestPdf } from '../../worker/pdf/render-request-pdf.js';
import { formatClientPrice, priceLines, priceRows } from '../../worker/pdf/price-rows.js';
import type { StoredPrice } from '../../server/core/domain/request-price.js';
import type { ProjectData } from '../../server/core/domain/scene.js';
import { pdfText } from '../helpers/pdf-text.js';

/** The request's stored price as the PDF and the e-mail print it (contract 12.11), never recomputed. */
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

const projectWith = (pricing: Record<string, unknown>): ProjectData => ({
  models: [],
  sceneData: { projectSettings: { pricing: { currency: 'EUR', ...pricing } } },
  renderQuality: 'optimised',
  saveConfigEnabled: false,
});

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

  it("writes the e-mail's block in the project's pricing locale, with what the visitor saw only on a mismatch", () => {
    const agreed = priceLines({ price: stored, clientPrice: { total: 37800, currency: 'EUR' } }, projectWith({}));
    expect(agreed).toEqual([
      'Price:',
      '  Base price: €149.00',
      '  Seat: Walnut: €40.00',
      '  Quantity: €189.00',
      '  Total: €378.00',
      '  Includes VAT (19%): €60.35',
    ]);
    const lied = priceLines({ price: stored, clientPrice: { total: 100, currency: 'EUR' } }, projectWith({}));
    expect(lied.at(-1)).toContain('The visitor saw €1.00');
    const german = priceLines({ price: stored, clientPrice: null }, projectWith({ locale: 'de-DE' }));
    expect(german).toContainEqual(expect.stringMatching(/^ {2}Total: 378,00\s€$/));
    expect(priceLines({ price: null, clientPrice: { total: 1, currency: null } }, projectWith({}))).toEqual([]);
  });
});

describe('the PDF price section', () => {
  const baseInput = {
    requestId: 'req-price',
    projectName: 'Stool',
    createdAt: new Date('2026-11-22T10:30:00Z'),
    formData: { name: 'Grace Hopper' },
    selectedOptions: {},
    configurationSummary: '',
    screenshots: [],
  };

  it('prints each line, the total and the tax note under Price', async () => {
    const text = await pdfText(
      await renderRequestPdf({
        ...baseInput,
        price: {
          lines: [
            ['Base price', '€149.00'],
            ['Seat: Walnut', '€40.00'],
          ],
          total: ['Total', '€378.00'],
          taxNote: 'Includes VAT (19%): €60.35',
        },
      }),
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
    expect(text.indexOf('Price')).toBeLessThan(text.indexOf('Configuration summary'));
  });

  it('has no Price section without a price', async () => {
    const text = await pdfText(await renderRequestPdf({ ...baseInput, price: null }));
    expect(text).not.toContain('Total');
    expect(text).not.toMatch(/^Price$/m);
  });
});
