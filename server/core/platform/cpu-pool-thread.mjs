// The entry of every cpu-pool.ts thread, plain JavaScript because threads do not inherit the TypeScript
// loader: it loads a task's module (via tsx's `tsImport` for .ts) and runs its default export.
import { workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';

const modules = new Map();

async function load(url) {
  if (!url.endsWith('.ts')) return import(url);
  const { tsImport } = await import('tsx/esm/api');
  return tsImport(url, import.meta.url);
}

// A warm pool (cpu-pool.ts `warm`): its task modules are loaded before the thread reports ready,
// so that no task waits for them.
for (const url of workerData?.warm ?? []) modules.set(url, load(url));
// A module that fails to load fails its tasks (with its error), not the thread.
await Promise.allSettled(modules.values());

/** The result's byte arrays that own their whole buffer, so moving them takes nothing from anyone else. */
function ownedBuffers(result) {
  if (result === null || typeof result !== 'object') return [];
  const values = ArrayBuffer.isView(result) ? [result] : Object.values(result);
  return values
    .filter(
      (v) =>
        ArrayBuffer.isView(v) &&
        v.buffer instanceof ArrayBuffer &&
        v.byteOffset === 0 &&
        v.byteLength === v.buffer.byteLength &&
        v.byteLength > 0,
    )
    .map((v) => v.buffer);
}

export default async function runTask({ task, input }) {
  if (!modules.has(task)) modules.set(task, load(task));
  const result = await (await modules.get(task)).default(input);
  const buffers = ownedBuffers(result);
  return buffers.length > 0 ? move({ [transferableSymbol]: buffers, [valueSymbol]: result }) : result;
}
