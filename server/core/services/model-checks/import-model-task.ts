import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { NodeIO, type Document } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { checkModelFile, checkModelFiles, type CheckedModel } from '../../domain/models/check-model-file.js';
import { ModelFileError, type ModelFileErrorCode } from '../../domain/models/model-file-error.js';
import { safeUnzip } from '../../domain/models/safe-unzip.js';
import { measureDocument, readinessReport, type ModelMetrics, type ReadinessReport } from '../../domain/models/readiness.js';

/** Where a downloaded model lies on the worker's disk (the import job's own temporary folder). */
export type ImportSource =
  | { kind: 'archive'; path: string }
  | { kind: 'glb'; path: string }
  /** A `.gltf` and its resources, written under `dir` at their relative paths (`files`). */
  | { kind: 'files'; dir: string; files: string[] };

export interface ImportModelInput {
  source: ImportSource;
  /** The credit line, written into `asset.copyright`. */
  copyright: string;
  /** Largest model kept (50 MB). */
  maxBytes: number;
}

/** Milliseconds spent in each step in the pool thread (logged with the job, never sent to clients). */
export type ImportTimings = Record<string, number>;

export type ImportModelOutcome = ({ ok: true; readiness: ReadinessReport; timings: ImportTimings } & CheckedModel) | { ok: false; code: ModelFileErrorCode; message: string; details?: unknown };

const NAME = 'import-model';

async function readSmall(file: string, maxBytes: number): Promise<Uint8Array> {
  const { size } = await stat(file);
  if (size > maxBytes) throw new ModelFileError('too_large', `${NAME}: the model is larger than ${maxBytes} bytes.`);
  return new Uint8Array(await readFile(file));
}

/** Measures a GLB's document when glTF-Transform can read it (not when it needs a decoder we lack). */
async function measureGlb(glb: Uint8Array): Promise<ModelMetrics | null> {
  try {
    const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
    return measureDocument(await io.readBinary(glb));
  } catch {
    return null;
  }
}

/**
 * The cpu-pool task of an import: the same checks as POST /assets (safe unzip, one model,
 * resources only from the archive, the Khronos validator, glTF → GLB, 50 MB), the credit in
 * `asset.copyright`, and the readiness report. Runs in a pool thread, reading the download from
 * the disk here so that the event loop never holds it.
 */
export default async function importModelTask(input: ImportModelInput): Promise<ImportModelOutcome> {
  const { source, copyright, maxBytes } = input;
  const started = performance.now();
  let metrics: ModelMetrics | null = null;
  const options = { maxBytes, copyright, onDocument: (document: Document) => (metrics = measureDocument(document)) };
  try {
    let checked: CheckedModel;
    if (source.kind === 'glb') {
      checked = await checkModelFile(await readSmall(source.path, maxBytes), 'model.glb', options);
    } else if (source.kind === 'archive') {
      checked = await checkModelFiles(await safeUnzip({ path: source.path }), options);
    } else {
      const files = new Map<string, Uint8Array>();
      let total = 0;
      for (const relative of source.files) {
        const bytes = await readSmall(path.join(source.dir, relative), maxBytes);
        total += bytes.length;
        if (total > maxBytes * 3) throw new ModelFileError('too_large', `${NAME}: the model's files are larger than ${maxBytes * 3} bytes.`);
        files.set(path.posix.normalize(relative), bytes);
      }
      checked = await checkModelFiles(files, options);
    }
    // A GLB kept as it came was not read by glTF-Transform: measured now.
    metrics ??= await measureGlb(checked.glb);
    const readiness = readinessReport(metrics, checked.info, checked.glb.byteLength);
    return { ok: true, ...checked, readiness, timings: { total: Math.round(performance.now() - started) } };
  } catch (error) {
    if (error instanceof ModelFileError) return { ok: false, code: error.code, message: error.message, details: error.details };
    throw error;
  }
}
