import { cpuTask, type CpuPool, type CpuTask } from '../../platform/cpu-pool.js';
import { unlessRefused, type ModelRefusal } from '../../domain/models/model-file-error.js';
import type { CheckedModel } from '../../domain/models/check-model-file.js';
import { readinessReport, type ReadinessReport } from '../../domain/models/readiness.js';
import type {
  ConvertOutcome,
  ImportModelInput,
  ImportStepInput,
  ImportTimings,
  UnpackOutcome,
  ValidateOutcome,
} from './import-model-task.js';

/** Each step of an import (unpacking, validating, converting a 50 MB model) takes seconds; past this it fails. */
const IMPORT_MODEL_TIMEOUT_MS = 180_000;

const task = <Out>() => cpuTask<ImportStepInput, Out>(import.meta.url, './import-model-task');
const unpackTask = task<UnpackOutcome>();
/** The module of every import step: what a pool loads ahead (cpu-pool.ts `warm`) to start imports at once. */
export const IMPORT_MODEL_TASK = unpackTask;
const validateTask = task<ValidateOutcome>();
const convertTask = task<ConvertOutcome>();

export interface ImportModelOptions {
  /** Cancels the steps (the job's own signal). */
  signal?: AbortSignal;
}

/**
 * An import's model checks in the CPU pool, with POST /assets' refusals in the same order (a validator
 * refusal wins over a conversion failure). Rejects with ModelFileError.
 */
export async function importModelInPool(
  pool: CpuPool,
  input: ImportModelInput,
  options: ImportModelOptions = {},
): Promise<CheckedModel & { readiness: ReadinessReport; timings: ImportTimings }> {
  // A refusal by the validator ends the conversion too: its GLB would never be used.
  const refused = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, refused.signal]) : refused.signal;
  const run = async <Out extends { ok: true } | ModelRefusal>(
    step: CpuTask<ImportStepInput, Out>,
    payload: ImportStepInput,
  ) => unlessRefused(await pool.run(step, payload, { timeoutMs: IMPORT_MODEL_TIMEOUT_MS, signal }));

  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  const walls: ImportTimings = {};
  const unpacked = await run(unpackTask, { step: 'unpack', source: input.source, maxBytes: input.maxBytes });
  const { parts } = unpacked;
  walls.unpacked = since();
  const validation = run(validateTask, { step: 'validate', parts }).then(
    (outcome) => ((walls.validated = since()), outcome),
    (error: unknown) => {
      refused.abort(error);
      throw error;
    },
  );
  const conversion = run(convertTask, {
    step: 'convert',
    parts,
    copyright: input.copyright,
    maxBytes: input.maxBytes,
  }).then((outcome) => ((walls.converted = since()), outcome));
  const [validated, converted] = await Promise.allSettled([validation, conversion]);
  if (validated.status === 'rejected') throw validated.reason;
  if (converted.status === 'rejected') throw converted.reason;

  const { glb, metrics, outline } = converted.value;
  const { info } = validated.value;
  return {
    glb,
    sourceFormat: parts.sourceFormat,
    info,
    outline,
    readiness: readinessReport(metrics, info, glb.byteLength),
    // In the threads (unpack, validate, convert), then when each was back here (*ed, *Done).
    timings: { unpack: unpacked.ms, validate: validated.value.ms, convert: converted.value.ms, ...walls },
  };
}
