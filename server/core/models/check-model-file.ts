import path from 'node:path';
import { NodeIO, type JSONDocument } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import * as validator from 'gltf-validator';
import { ModelFileError } from './model-file-error.js';
import { safeUnzip, type SafeUnzipOptions } from './safe-unzip.js';

/**
 * The asset file checks: one entry point for uploads (POST /assets) and library imports.
 * Input is an untrusted file held in memory; output is a validated GLB ready for storage.
 * Nothing here writes anywhere, so a refused file leaves no trace.
 */
export interface CheckModelOptions {
  /** Largest input file and largest resulting GLB. Default 50 MB. */
  maxBytes: number;
  /** Validator messages reported back with a refusal. Default 20. */
  maxReportedIssues: number;
  unzip: Partial<SafeUnzipOptions>;
}

export const CHECK_MODEL_DEFAULTS: CheckModelOptions = {
  maxBytes: 50 * 1024 * 1024,
  maxReportedIssues: 20,
  unzip: {},
};

export type SourceFormat = 'glb' | 'gltf' | 'zip';

export interface CheckedModel {
  glb: Uint8Array;
  sourceFormat: SourceFormat;
  /** The validator's summary: counts and flags, plus its warnings. */
  info: Record<string, unknown>;
}

const NAME = 'check-model';
const GLB_MAGIC = 0x46546c67; // "glTF"
const invalid = (message: string, details?: unknown) => new ModelFileError('invalid_file', message, details);

export function detectFormat(bytes: Uint8Array): SourceFormat | null {
  if (bytes.length >= 12 && Buffer.from(bytes.buffer, bytes.byteOffset, 4).readUInt32LE(0) === GLB_MAGIC) return 'glb';
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'zip';
  const head = Buffer.from(bytes.subarray(0, 64)).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  return head.startsWith('{') ? 'gltf' : null;
}

const EXTENSIONS = new Set(['.glb', '.gltf', '.zip']);

export async function checkModelFile(
  bytes: Uint8Array,
  fileName: string,
  options: Partial<CheckModelOptions> = {},
): Promise<CheckedModel> {
  const opts = { ...CHECK_MODEL_DEFAULTS, ...options };
  if (bytes.length > opts.maxBytes) throw new ModelFileError('too_large', `The file is larger than ${opts.maxBytes} bytes.`);
  const extension = path.extname(fileName).toLowerCase();
  if (!EXTENSIONS.has(extension)) throw invalid(`Unsupported file type "${extension || fileName}": upload a .glb, a .gltf or a .zip.`);
  const format = detectFormat(bytes);
  if (!format) throw invalid('The file is not a glTF model (no GLB header, zip signature or glTF JSON).');

  if (format === 'glb') {
    const info = await validate(bytes, { format: 'glb', uri: fileName }, new Map(), opts);
    return { glb: bytes, sourceFormat: 'glb', info };
  }
  if (format === 'gltf') {
    const json = parseGltfJson(bytes);
    return { ...(await gltfToGlb(json, new Map(), '', fileName, opts)), sourceFormat: 'gltf' };
  }
  const files = await safeUnzip(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), opts.unzip);
  const entry = pickModelEntry(files);
  const content = files.get(entry)!;
  if (entry.toLowerCase().endsWith('.glb')) {
    const info = await validate(content, { format: 'glb', uri: entry }, new Map(), opts);
    return { glb: content, sourceFormat: 'zip', info };
  }
  const json = parseGltfJson(content);
  return { ...(await gltfToGlb(json, files, path.posix.dirname(entry), entry, opts)), sourceFormat: 'zip' };
}

/** Exactly one model per archive; the shallowest wins only when it is unambiguous. */
function pickModelEntry(files: Map<string, Uint8Array>): string {
  const candidates = [...files.keys()].filter((name) => /\.(gltf|glb)$/i.test(name));
  if (candidates.length === 0) throw invalid('The archive holds no .gltf or .glb file.');
  const depth = (name: string) => name.split('/').length;
  const shallowest = Math.min(...candidates.map(depth));
  const top = candidates.filter((name) => depth(name) === shallowest);
  if (top.length > 1) throw invalid(`The archive holds several models (${top.join(', ')}); upload one per archive.`);
  return top[0];
}

function parseGltfJson(bytes: Uint8Array): Record<string, unknown> {
  try {
    const json = JSON.parse(Buffer.from(bytes).toString('utf8').replace(/^\uFEFF/, ''));
    if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error('not an object');
    return json;
  } catch (error) {
    throw invalid(`The .gltf file is not valid JSON (${(error as Error).message}).`);
  }
}

interface UriHolder {
  uri?: string;
}

/**
 * Maps each external URI of buffers and images to bytes from the archive. URIs must stay
 * inside the archive: `..`, absolute paths and schemes other than data: are refused (a plain
 * `.gltf` upload has no archive, so any external URI is refused there).
 */
function resolveResources(json: Record<string, unknown>, files: Map<string, Uint8Array>, baseDir: string, fromArchive: boolean) {
  const resources: Record<string, Uint8Array> = {};
  const holders = [...((json.buffers as UriHolder[]) ?? []), ...((json.images as UriHolder[]) ?? [])];
  for (const holder of holders) {
    const uri = holder?.uri;
    if (typeof uri !== 'string' || uri.startsWith('data:')) continue;
    if (!fromArchive) throw invalid(`The .gltf references the external file "${uri}": upload a .zip with its resources, or a .glb.`);
    if (/^[a-z][a-z0-9+.-]*:/i.test(uri)) throw invalid(`The model references a URL ("${uri}"); only files inside the archive are allowed.`);
    let decoded: string;
    try {
      decoded = decodeURIComponent(uri);
    } catch {
      throw invalid(`The resource URI "${uri}" is malformed.`);
    }
    const resolved = path.posix.normalize(path.posix.join(baseDir, decoded));
    if (resolved.startsWith('../') || path.posix.isAbsolute(resolved)) throw invalid(`The resource "${uri}" points outside the archive.`);
    const data = files.get(resolved);
    if (!data) throw invalid(`The archive is missing the resource "${uri}".`);
    resources[uri] = data;
  }
  return resources;
}

async function gltfToGlb(
  json: Record<string, unknown>,
  files: Map<string, Uint8Array>,
  baseDir: string,
  uri: string,
  opts: CheckModelOptions,
): Promise<Omit<CheckedModel, 'sourceFormat'>> {
  const resources = resolveResources(json, files, baseDir, files.size > 0);
  const info = await validate(new TextEncoder().encode(JSON.stringify(json)), { format: 'gltf', uri }, new Map(Object.entries(resources)), opts);
  let glb: Uint8Array;
  try {
    const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
    const document = await io.readJSON({ json, resources } as unknown as JSONDocument);
    glb = await io.writeBinary(document);
  } catch (error) {
    throw new ModelFileError('conversion_failed', `${NAME}: the model could not be converted to GLB (${(error as Error).message}).`);
  }
  if (glb.length > opts.maxBytes) throw new ModelFileError('too_large', `The converted model is larger than ${opts.maxBytes} bytes.`);
  return { glb, info };
}

/** Runs the Khronos validator; any error refuses the file with the validator's own messages. */
async function validate(
  bytes: Uint8Array,
  meta: { format: 'gltf' | 'glb'; uri: string },
  resources: Map<string, Uint8Array>,
  opts: CheckModelOptions,
): Promise<Record<string, unknown>> {
  let report: validator.ValidationReport;
  try {
    report = await validator.validateBytes(bytes, {
      uri: meta.uri,
      format: meta.format,
      maxIssues: 200,
      writeTimestamp: false,
      externalResourceFunction: (uri) => {
        const data = resources.get(uri);
        return data ? Promise.resolve(data) : Promise.reject(new Error(`missing resource ${uri}`));
      },
    });
  } catch (error) {
    throw invalid(`The file is not a valid glTF model (${String((error as Error)?.message ?? error)}).`);
  }
  const messages = report.issues.messages.map(({ code, message, severity, pointer }) => ({ code, message, severity, pointer }));
  if (report.issues.numErrors > 0) {
    const errors = messages.filter((m) => m.severity === 0).slice(0, opts.maxReportedIssues);
    throw invalid(`The glTF validator found ${report.issues.numErrors} error(s): ${errors.map((e) => e.message).slice(0, 3).join('; ')}`, {
      validatorVersion: report.validatorVersion,
      numErrors: report.issues.numErrors,
      messages: errors,
    });
  }
  const info = report.info ?? {};
  return {
    validatorVersion: report.validatorVersion,
    numWarnings: report.issues.numWarnings,
    warnings: messages.filter((m) => m.severity === 1).slice(0, opts.maxReportedIssues),
    ...pick(info, ['version', 'generator', 'extensionsUsed', 'extensionsRequired', 'animationCount', 'materialCount', 'hasMorphTargets', 'hasSkins', 'hasTextures', 'drawCallCount', 'totalVertexCount', 'totalTriangleCount']),
  };
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in source).map((k) => [k, source[k]]));
}
