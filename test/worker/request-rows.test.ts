import { describe, expect, it } from 'vitest';
import { requestRows, type RequestForRows } from '../../worker/pdf/request-rows.js';
import { ownerMail, customerCopyMail } from '../../worker/request-mails.js';
import { priceRequest } from '#core/domain/request-price.js';
import { parseScene } from '#core/wire/configurator/index.js';
import type { ProjectData } from '#core/domain/scene.js';
import { PRICED_STOOL } from '../helpers/priced-stool.js';

/** The one builder of what the PDF and both e-mails print, on the priced stool. */
function stoolRequest(
  options: { settings?: Record<string, unknown>; selected?: Record<string, unknown>; formData?: object } = {},
): RequestForRows {
  const projectData: ProjectData = {
    models: [],
    sceneData: { ...PRICED_STOOL, projectSettings: { ...PRICED_STOOL.projectSettings, ...options.settings } },
    renderQuality: 'optimised',
    saveConfigEnabled: false,
  };
  const formData = { name: 'Ada Lovelace', email: 'ada@example.com', quantity: 1, ...options.formData };
  // The visitor's order is not the page's: rows follow the blocks.
  const selectedOptions = options.selected ?? { legs: 'brass', seat: 'oak', colour: 'red' };
  return {
    submission: {
      id: 'req-1',
      createdAt: new Date('2026-11-22T10:30:00Z'),
      formData,
      selectedOptions,
      configurationSummary: '  Seat: Oak, Legs: Brass  ',
      price: priceRequest(parseScene(projectData).scene, selectedOptions, formData),
      clientPrice: null,
    },
    projectName: 'Stool',
    projectData,
  };
}

describe('request rows', () => {
  it('lists the options in block order through the parser, each with its price as a delta', () => {
    const rows = requestRows(stoolRequest());
    expect(rows.options).toEqual([
      { block: 'Seat', choice: 'Oak', price: null },
      { block: 'Legs', choice: 'Brass', price: '+€25.00' },
    ]);
    expect(rows.price).toEqual({
      lines: [
        ['Base price', '€149.00'],
        ['Legs: Brass', '€25.00'],
      ],
      total: ['Total', '€174.00'],
      taxNote: 'Includes VAT (19%): €27.78',
    });
    expect(rows).toMatchObject({
      companyName: 'Stool',
      date: 'November 22, 2026 at 10:30 AM UTC',
      customer: [
        ['Full name', 'Ada Lovelace'],
        ['E-mail address', 'ada@example.com'],
        ['Quantity', '1'],
      ],
      summary: 'Seat: Oak, Legs: Brass',
      visitorSaw: null,
    });
  });

  it('formats in pricing.locale and pricing.currency (before the older top-level key), names the company', () => {
    const rows = requestRows(
      stoolRequest({
        settings: {
          currency: 'USD',
          pricing: { currency: 'EUR', locale: 'de-DE' },
          branding: { companyName: 'Hocker GmbH' },
        },
      }),
    );
    expect(rows.options[1].price).toMatch(/^\+25,00\s€$/);
    expect(rows.price?.total[1]).toMatch(/^174,00\s€$/);
    expect(rows.date).toBe('22. November 2026 um 10:30 UTC');
    expect(rows.companyName).toBe('Hocker GmbH');
  });

  it('never prints an owner number: without a stored price the options carry no price at all', () => {
    const work = stoolRequest();
    const rows = requestRows({ ...work, submission: { ...work.submission, price: null } });
    expect(rows.options).toEqual([
      { block: 'Seat', choice: 'Oak', price: null },
      { block: 'Legs', choice: 'Brass', price: null },
    ]);
    expect(rows.price).toBeNull();
  });

  it("tells the owner what the visitor's page showed when it differs", () => {
    const work = stoolRequest();
    const rows = requestRows({
      ...work,
      submission: { ...work.submission, clientPrice: { total: 100, currency: 'EUR' } },
    });
    expect(rows.visitorSaw).toBe('€1.00');
  });
});

describe('the request e-mails', () => {
  it('give the owner the answers, the options in block order with prices, the price lines, in text and HTML', () => {
    const rows = requestRows(stoolRequest({ formData: { name: 'Ada <script>alert(1)</script>' } }));
    const mail = ownerMail(rows, true);
    expect(mail.subject).toBe('New request for Stool');
    expect(mail.text).toContain('Full name: Ada <script>alert(1)</script>');
    expect(mail.text).toContain('Selected options:\n  Seat: Oak\n  Legs: Brass  +€25.00');
    expect(mail.text).toContain('Price:\n  Base price: €149.00\n  Legs: Brass: €25.00\n  Total: €174.00');
    expect(mail.text).toContain('Includes VAT (19%): €27.78');
    expect(mail.text).toContain('Configuration summary:\nSeat: Oak, Legs: Brass');
    expect(mail.text).toContain('The request is attached as a PDF.');
    // Visitor text is text in the HTML, never markup.
    expect(mail.html).toContain('Ada &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
    const cells = [...mail.html.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(cells.join('|')).toContain('Seat|Oak||Legs|Brass|+€25.00');
    expect(cells.join('|')).toContain('Total|€174.00');
  });

  it("give the visitor a copy with the options, the price lines and the summary, but not the page's figure", () => {
    const work = stoolRequest({ settings: { branding: { companyName: 'Stool & Co.' } } });
    const rows = requestRows({
      ...work,
      submission: { ...work.submission, clientPrice: { total: 1, currency: 'EUR' } },
    });
    const mail = customerCopyMail(rows, true);
    expect(mail.subject).toBe('We received your request - Stool & Co.');
    expect(mail.text).toContain(
      'We received your request\n\nThank you for your request for "Stool". Stool & Co. will get back to you',
    );
    expect(mail.text).toContain('Legs: Brass  +€25.00');
    expect(mail.text).toContain('Total: €174.00');
    expect(mail.text).toContain('Seat: Oak, Legs: Brass');
    expect(mail.text).toContain('Your request is attached as a PDF.');
    expect(mail.text).not.toContain('The visitor saw');
    expect(mail.html).toContain('Stool &amp; Co. will get back to you');
  });
});
