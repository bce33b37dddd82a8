import type { Piscina } from 'piscina';
import { withTimeout } from './deadline.js';

/**
 * A small thread pool for CPU work (PDFs, model checks) so it never blocks the event loop (BullMQ lock renewals, HTTP
 * answers). A task is a module's default export named by file URL; past its time or heap limit it fails alone.
 */
export interface CpuPoolOptions {
  /** Threads running tasks at once (CPU_THREADS, default 2); further tasks wait their turn. */
  threads?: number;
  /** Heap limit of each thread; past it the task fails instead of the process (default 512 MB). */
  maxHeapMb?: number;
  /**
   * Modules every thread loads at start; with any, all threads start together (with the first task, or
   * `start()`) and are kept so no task pays for a start. Default none: threads start on demand and end
   * after a minute idle.
   */
  warm?: CpuTask<never, unknown>[];
}

const CPU_POOL_DEFAULTS = { threads: 2, maxHeapMb: 512 } as const;

/** A task the pool can run: its module and, for the types, what it takes and gives. */
export interface CpuTask<In, Out> {
  url: string;
  /** For error messages. */
  name: string;
  /** Phantom: carries the types only. */
  readonly types?: (input: In) => Out;
}

/**
 * Names a task module (its default export runs in the pool): `path` relative to the caller's
 * `import.meta.url`, without extension so `.ts` under tsx and compiled `.js` both work.
 */
export function cpuTask<In, Out>(callerUrl: string, path: string): CpuTask<In, Out> {
  const extension = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  return { url: new URL(`${path}${extension}`, callerUrl).href, name: path.replace(/^.*\//, '') };
}

export interface RunOptions {
  /** The task fails with a TimeoutError past this (and is stopped). */
  timeoutMs: number;
  /** Byte arrays to move to the thread instead of copying (they are unusable here afterwards). */
  transfer?: Uint8Array[];
  /** Cancels the task (a job's own signal). */
  signal?: AbortSignal;
}

/** The buffers that can be moved: only those a view owns whole (a Node pool slab is shared with other Buffers). */
const movable = (views: Uint8Array[]) =>
  views
    .filter((v) => v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && v.buffer instanceof ArrayBuffer)
    .map((v) => v.buffer as ArrayBuffer);

/**
 * The pool loads piscina and starts its threads with the first task (or `start()`), not with the process:
 * that CPU would otherwise delay /health.
 */
export function createCpuPool(options: CpuPoolOptions = {}) {
  const { threads, maxHeapMb } = { ...CPU_POOL_DEFAULTS, ...options };
  const warm = (options.warm ?? []).map((task) => task.url);
  let pool: Promise<Piscina> | null = null;
  const started = () =>
    (pool ??= import('piscina').then(
      ({ Piscina }) =>
        new Piscina({
          filename: new URL('./cpu-pool-thread.mjs', import.meta.url).href,
          workerData: { warm },
          minThreads: warm.length > 0 ? threads : 0,
          maxThreads: threads,
          // Threads hold fonts and modules: kept a while for the next task, then given back.
          idleTimeout: 60_000,
          resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
        }),
    ));

  return {
    /** Starts the threads (and loads the `warm` modules) ahead of a task. */
    start(): void {
      void started();
    },

    /**
     * Runs `task` on `input` in a pool thread; rejects with the task's error, a TimeoutError or the signal's reason.
     */
    async run<In, Out>(task: CpuTask<In, Out>, input: In, runOptions: RunOptions): Promise<Out> {
      const { timeoutMs, transfer = [], signal } = runOptions;
      const piscina = await started();
      return withTimeout(
        (deadline) =>
          piscina.run({ task: task.url, input }, { signal: deadline, transferList: movable(transfer) }) as Promise<Out>,
        timeoutMs,
        `${task.name}: took longer than ${timeoutMs} ms`,
        signal,
      );
    },
    /** Lets queued and running tasks finish (for at most `timeoutMs`, then stops them) and ends the threads. */
    async close(timeoutMs = 5000) {
      const piscina = await pool;
      if (!piscina) return;
      await withTimeout(() => piscina.close(), timeoutMs).catch(() => piscina.destroy());
    },
  };
}

export type CpuPool = ReturnType<typeof createCpuPool>;
