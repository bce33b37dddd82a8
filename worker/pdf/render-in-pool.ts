import { cpuTask, type CpuPool } from '#core/platform/cpu-pool.js';
import type { RequestPdfInput } from './render-request-pdf.js';

/**
 * `renderRequestPdf` in the CPU pool, so seconds of synchronous rendering never block the event loop (BullMQ
 * keeps renewing the job's lock) and a runaway render is stopped without taking the process with it.
 */
export interface RenderInPoolOptions {
  /** A render still running after this long is stopped and fails the attempt (default 60000 ms). */
  timeoutMs?: number;
  /** Stops the render (the job's own signal). */
  signal?: AbortSignal;
}

const RENDER_IN_POOL_DEFAULTS = { timeoutMs: 60_000 } as const;

const renderPdfTask = cpuTask<RequestPdfInput, Uint8Array>(import.meta.url, './render-pdf-task');

/** Renders the request PDF off the event loop; rejects when the render fails or takes too long. */
export async function renderRequestPdfInPool(
  pool: CpuPool,
  input: RequestPdfInput,
  options: RenderInPoolOptions = {},
): Promise<Buffer> {
  const { timeoutMs, signal } = { ...RENDER_IN_POOL_DEFAULTS, ...options };
  const pdf = await pool.run(renderPdfTask, input, { timeoutMs, signal });
  return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
}
