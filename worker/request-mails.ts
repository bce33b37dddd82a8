import type { RequestRows } from './pdf/request-rows.js';

/**
 * The two e-mails of a request, as plain text and HTML from the same rows as the PDF (request-rows.ts):
 * the owner's ("New request") and the visitor's copy ("We received your request").
 */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** A part of a message: a title, paragraphs, label/value rows (a third cell is an amount), preformatted text. */
interface Section {
  /** The message's own title, first. */
  heading?: string;
  title?: string;
  paragraphs?: string[];
  rows?: string[][];
  /** Right-aligns the last cell of each row (amounts). */
  amounts?: boolean;
  /** The last row in bold (a total). */
  strongLast?: boolean;
  /** A line under the rows (the tax a total includes). */
  footnote?: string;
  pre?: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Visitor and owner text goes into HTML as text, never as markup. */
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** `Full name: Ada`; with a third cell, `Legs: Brass  +€25.00`. */
const rowText = ([label, value, amount]: string[]) => `${label}: ${value}${amount ? `  ${amount}` : ''}`;

function toText(sections: Section[]): string {
  return sections
    .map((section) => {
      const lines: string[] = [];
      if (section.heading) lines.push(section.heading, '');
      if (section.title) lines.push(`${section.title}:`);
      const indent = section.title ? '  ' : '';
      for (const paragraph of section.paragraphs ?? []) lines.push(paragraph);
      for (const cells of section.rows ?? []) lines.push(indent + rowText(cells));
      if (section.footnote) lines.push(indent + section.footnote);
      if (section.pre) lines.push(section.pre);
      return lines.join('\n');
    })
    .join('\n\n');
}

const CELL = 'padding:4px 12px 4px 0;vertical-align:top;border-bottom:1px solid #e5e7eb';

function toHtml(sections: Section[]): string {
  const body = sections
    .map((section) => {
      const parts: string[] = [];
      if (section.heading) parts.push(`<h2 style="margin:0 0 12px;font-size:20px">${escape(section.heading)}</h2>`);
      if (section.title) parts.push(`<h3 style="margin:0 0 6px;font-size:15px">${escape(section.title)}</h3>`);
      for (const paragraph of section.paragraphs ?? [])
        parts.push(`<p style="margin:0 0 8px">${escape(paragraph)}</p>`);
      if (section.rows?.length) {
        const rows = section.rows.map((cells, index) => {
          const bold = section.strongLast && index === section.rows!.length - 1 ? 'font-weight:bold;' : '';
          const tds = cells.map((cell, i) => {
            const right = section.amounts && i === cells.length - 1 ? 'text-align:right;white-space:nowrap;' : '';
            const label = i === 0 ? 'color:#4b5563;' : '';
            return `<td style="${CELL};${label}${right}${bold}">${escape(cell)}</td>`;
          });
          return `<tr>${tds.join('')}</tr>`;
        });
        parts.push(`<table style="border-collapse:collapse;font-size:14px">${rows.join('')}</table>`);
      }
      if (section.footnote)
        parts.push(`<p style="margin:4px 0 0;color:#4b5563;font-size:13px">${escape(section.footnote)}</p>`);
      if (section.pre) parts.push(`<p style="margin:0;white-space:pre-wrap">${escape(section.pre)}</p>`);
      return `<div style="margin:0 0 16px">${parts.join('\n')}</div>`;
    })
    .join('\n');
  return (
    '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1d1d1f;font-size:14px">\n' +
    `<div style="max-width:640px;margin:0 auto;padding:16px">\n${body}\n</div></body></html>`
  );
}

/** The options as rows: block, choice and its price when it has one (`Legs: Brass  +€25.00` in text). */
const optionsSection = (rows: RequestRows): Section[] =>
  rows.options.length
    ? [{ title: 'Selected options', rows: rows.options.map((o) => [o.block, o.choice, o.price ?? '']), amounts: true }]
    : [];

/** The price lines, the total and the tax note, as in the PDF. */
function priceSections(rows: RequestRows): Section[] {
  if (!rows.price) return [];
  const { lines, total, taxNote } = rows.price;
  return [{ title: 'Price', rows: [...lines, total], amounts: true, strongLast: true, footnote: taxNote ?? undefined }];
}

const summarySection = (rows: RequestRows): Section[] =>
  rows.summary ? [{ title: 'Configuration summary', pre: rows.summary }] : [];

const mail = (subject: string, sections: Section[]): MailContent => ({
  subject,
  text: toText(sections),
  html: toHtml(sections),
});

/** The owner's e-mail: who asked, what they chose, the price (and what the page showed, when it differs). */
export function ownerMail(rows: RequestRows, pdfAttached: boolean): MailContent {
  return mail(`New request for ${rows.projectName}`, [
    { heading: 'New request', paragraphs: [`A visitor sent a request for "${rows.projectName}".`] },
    {
      rows: [
        ['Request', rows.requestId],
        ['Date', rows.date],
      ],
    },
    { rows: rows.customer },
    ...optionsSection(rows),
    ...priceSections(rows),
    ...(rows.visitorSaw
      ? [
          {
            paragraphs: [
              `The visitor saw ${rows.visitorSaw}: the page's figure differs from the price above, which the ` +
                'server computed from the submitted options.',
            ],
          },
        ]
      : []),
    ...summarySection(rows),
    {
      paragraphs: [
        pdfAttached ? 'The request is attached as a PDF.' : 'The PDF could not be rendered; the details are above.',
      ],
    },
  ]);
}

/** The visitor's copy: what they sent, with the price lines; replies go to the owner (the caller's Reply-To). */
export function customerCopyMail(rows: RequestRows, pdfAttached: boolean): MailContent {
  return mail(`We received your request - ${rows.companyName}`, [
    {
      heading: 'We received your request',
      paragraphs: [
        `Thank you for your request for "${rows.projectName}". ${rows.companyName} will get back to you; ` +
          'to add something, reply to this e-mail.',
      ],
    },
    {
      rows: [
        ['Reference', rows.requestId],
        ['Date', rows.date],
      ],
    },
    ...optionsSection(rows),
    ...priceSections(rows),
    ...summarySection(rows),
    ...(pdfAttached ? [{ paragraphs: ['Your request is attached as a PDF.'] }] : []),
  ]);
}
