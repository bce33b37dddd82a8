import { renderRequestPdf, type RequestPdfInput } from './render-request-pdf.js';

/**
 * The cpu-pool task of render-in-pool.ts: renders the PDF in a pool thread. Buffers arrive as
 * plain Uint8Arrays (structured clone) and are turned back into Buffers for pdfkit.
 */
export default async function renderPdfTask(input: RequestPdfInput): Promise<Uint8Array> {
  const screenshots = input.screenshots.map((shot) => ({
    ...shot,
    data: shot.data ? Buffer.from(shot.data.buffer, shot.data.byteOffset, shot.data.byteLength) : null,
  }));
  const pdf = await renderRequestPdf({ ...input, screenshots });
  // An array of its own, so that it can be moved back instead of copied.
  return new Uint8Array(pdf);
}
