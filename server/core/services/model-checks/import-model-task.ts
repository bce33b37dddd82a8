import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import yauzl from 'yauzl';
import {
  convertModel,
  unpackModelFile,
  unpackModelFiles,
  validateModel,
  type ModelParts,
} from '../../domain/models/check-model-file.js';
import { ModelFileError, refusalOf, type ModelRefusal } from '../../domain/models/model-file-error.js';
import { safeUnzip } from '../../domain/models/safe-unzip.js';
import { measureDocument, type ModelMetrics } from '../../domain/models/readiness.js';
import { glbOutline } from '../../domain/models/model-outline.js';
import type { Outline } from '../../wire/outline.js';
import { gltfValidatorErrorCodes } from '../../platform/gltf-validator-error-codes.js';

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

/** Milliseconds spent in each step in the pool threads (logged with the job, never sent to clients). */
export type ImportTimings = Record<string, number>;

/**
 * One step of an import in a pool thread. `unpack` reads the download into SharedArrayBuffers off the event
 * loop, so `validate` and `convert` can read the same bytes in two threads at once without a copy.
 */
export type ImportStepInput =
  | { step: 'unpack'; source: ImportSource; maxBytes: number }
  | { step: 'validate'; parts: ModelParts }
  | { step: 'convert'; parts: ModelParts; copyright: string; maxBytes: number };

export type UnpackOutcome = { ok: true; parts: ModelParts; ms: number } | ModelRefusal;
export type ValidateOutcome = { ok: true; info: Record<string, unknown>; ms: number } | ModelRefusal;
/** `metrics` is null for a GLB glTF-Transform cannot read (a compression without its decoder). */
export type ConvertOutcome =
  { ok: true; glb: Uint8Array; metrics: ModelMetrics | null; outline: Outline; ms: number } | ModelRefusal;

const NAME = 'import-model';

/** A file of the download, size-checked, in a SharedArrayBuffer of its own. */
async function readShared(file: string, maxBytes: number): Promise<Uint8Array> {
  const { size } = await stat(file);
  if (size > maxBytes) throw new ModelFileError('too_large', `${NAME}: the model is larger than ${maxBytes} bytes.`);
  const bytes = new Uint8Array(new SharedArrayBuffer(size));
  const handle = await open(file, 'r');
  try {
    for (let offset = 0; offset < size;) {
      const { bytesRead } = await handle.read(bytes, offset, size - offset, offset);
      if (bytesRead === 0) throw new ModelFileError('invalid_file', `${NAME}: the download changed while it was read.`);
      offset += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return bytes;
}

async function unpack(source: ImportSource, maxBytes: number): Promise<ModelParts> {
  if (source.kind === 'glb') return unpackModelFile(await readShared(source.path, maxBytes), 'model.glb', { maxBytes });
  if (source.kind === 'archive')
    return unpackModelFiles(await safeUnzip((options) => yauzl.openPromise(source.path, options), { shared: true }), {
      maxBytes,
    });
  const files = new Map<string, Uint8Array>();
  let total = 0;
  for (const relative of source.files) {
    const bytes = await readShared(path.join(source.dir, relative), maxBytes);
    total += bytes.length;
    if (total > maxBytes * 3)
      throw new ModelFileError('too_large', `${NAME}: the model's files are larger than ${maxBytes * 3} bytes.`);
    files.set(path.posix.normalize(relative), bytes);
  }
  return unpackModelFiles(files, { maxBytes });
}

/** Measures the stored GLB when glTF-Transform can read it (not when it needs a decoder we lack). */
async function measureGlb(glb: Uint8Array): Promise<ModelMetrics | null> {
  try {
    const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
    return measureDocument(await io.readBinary(glb));
  } catch {
    return null;
  }
}

async function convert(
  parts: ModelParts,
  copyright: string,
  maxBytes: number,
): Promise<{ glb: Uint8Array; metrics: ModelMetrics | null; outline: Outline }> {
  let { glb } = await convertModel(parts, { maxBytes, copyright });
  // Given back in memory of its own, moved (not copied) to the caller and written as usual.
  if (!(glb.buffer instanceof ArrayBuffer)) glb = new Uint8Array(glb);
  return { glb, metrics: await measureGlb(glb), outline: await glbOutline(glb) };
}

/**
 * The cpu-pool task of an import's steps (import-model-in-pool.ts puts them together): the checks of
 * POST /assets, so an imported model is held to the same rules as an uploaded one.
 */
export default async function importModelTask(
  input: ImportStepInput,
): Promise<UnpackOutcome | ValidateOutcome | ConvertOutcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    if (input.step === 'unpack') return { ok: true, parts: await unpack(input.source, input.maxBytes), ms: ms() };
    if (input.step === 'validate')
      return {
        ok: true,
        info: await validateModel(input.parts, { validatorErrorCodes: gltfValidatorErrorCodes() }),
        ms: ms(),
      };
    return { ok: true, ...(await convert(input.parts, input.copyright, input.maxBytes)), ms: ms() };
  } catch (error) {
    return refusalOf(error);
  }
}
