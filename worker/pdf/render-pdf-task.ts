import { renderRequestPdf, type RequestPdfInput } from './render-request-pdf.js';

/**
 * The cpu-pool task of render-in-pool.ts: renders the PDF in a pool thread. Buffers arrive as
 * plain Uint8Arrays (structured clone) and are turned back into Buffers for pdfkit.
 */
const asBuffer = (bytes: Uint8Array | null | undefined) =>
  bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;

export default async function renderPdfTask(input: RequestPdfInput): Promise<Uint8Array> {
  const screenshots = input.screenshots.map((shot) => ({ ...shot, data: asBuffer(shot.data) }));
  const pdf = await renderRequestPdf({ ...input, logo: asBuffer(input.logo), screenshots });
  // An array of its own, so that it can be moved back instead of copied.
  return new Uint8Array(pdf);
}
