import { Worker } from 'node:worker_threads';
import type { RequestPdfInput } from './render-request-pdf.js';

/**
 * `renderRequestPdf` in a worker thread of its own, so that rendering (synchronous CPU work,
 * seconds for large images) never blocks the worker's event loop: BullMQ keeps renewing the
 * job's lock, other jobs keep running, and a render that runs away is stopped without taking
 * the process with it.
 */
export interface RenderInThreadOptions {
  /** A render still running after this long is stopped and fails the attempt (default 60000 ms). */
  timeoutMs?: number;
  /** Heap limit of the thread; past it the render fails instead of the process (default 512 MB). */
  maxHeapMb?: number;
}

export const RENDER_IN_THREAD_DEFAULTS = { timeoutMs: 60_000, maxHeapMb: 512 } as const;

const NAME = 'render-in-thread';

/**
 * The thread itself. Under tsx (how every process of this product runs), a worker thread does
 * not inherit the TypeScript loader, so a tiny JavaScript bootstrap loads the entry through
 * tsx's `tsImport`; compiled to JavaScript, the entry is started directly.
 */
function startThread(input: RequestPdfInput, maxHeapMb: number): Worker {
  const ownUrl = import.meta.url;
  const options = { workerData: input, resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } };
  if (!ownUrl.endsWith('.ts')) return new Worker(new URL('./render-thread.js', ownUrl), options);
  const entry = JSON.stringify(new URL('./render-thread.ts', ownUrl).href);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return new Worker(`import(${tsx}).then(({ tsImport }) => tsImport(${entry}, ${entry}))`, { ...options, eval: true });
}

/** Renders the request PDF off the event loop; rejects when the thread fails, dies or takes too long. */
export function renderRequestPdfInThread(input: RequestPdfInput, options: RenderInThreadOptions = {}): Promise<Buffer> {
  const { timeoutMs, maxHeapMb } = { ...RENDER_IN_THREAD_DEFAULTS, ...options };
  return new Promise<Buffer>((resolve, reject) => {
    const thread = startThread(input, maxHeapMb);
    let settled = false;
    const finish = (error: Error | null, pdf?: Buffer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void thread.terminate();
      if (error) reject(error);
      else resolve(pdf!);
    };
    const timer = setTimeout(() => finish(new Error(`${NAME}: rendering the PDF took longer than ${timeoutMs} ms`)), timeoutMs);
    thread.once('message', (bytes: Uint8Array) => finish(null, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
    thread.once('error', (error) => finish(error instanceof Error ? error : new Error(String(error))));
    thread.once('exit', (code) => finish(new Error(`${NAME}: the rendering thread exited (code ${code}) without a PDF`)));
  });
}
