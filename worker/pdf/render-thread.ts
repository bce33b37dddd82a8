import { parentPort, workerData } from 'node:worker_threads';
import { renderRequestPdf, type RequestPdfInput } from './render-request-pdf.js';

/**
 * The worker-thread entry of render-in-thread.ts: renders the PDF described by `workerData` and
 * posts its bytes back. Buffers arrive as plain Uint8Arrays (structured clone) and are turned
 * back into Buffers for pdfkit.
 */
const input = workerData as RequestPdfInput;
const screenshots = input.screenshots.map((shot) => ({
  ...shot,
  data: shot.data ? Buffer.from(shot.data.buffer, shot.data.byteOffset, shot.data.byteLength) : null,
}));
const pdf = await renderRequestPdf({ ...input, screenshots });
parentPort!.postMessage(pdf);
