import path from 'node:path';
import { NodeIO, type Document, type JSONDocument } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import * as validator from 'gltf-validator';
import { ModelFileError, invalidModelFile, type ModelFileIssue } from './model-file-error.js';
import { safeUnzip, type SafeUnzipOptions } from './safe-unzip.js';
import { setGlbCopyright } from './glb-copyright.js';

/**
 * The asset file checks: one entry point for uploads (POST /assets) and library imports.
 * Input is an untrusted file held in memory; output is a validated GLB ready for storage.
 * Nothing here writes anywhere and nothing reads the disk (resource URIs are resolved only
 * against the archive), so a refused file leaves no trace.
 */
export interface CheckModelOptions {
  /** Largest input file and largest resulting GLB. Default 50 MB. */
  maxBytes: number;
  /** Validator messages reported back with a refusal or kept as warnings. Default 20. */
  maxReportedIssues: number;
  /** Limits for `.zip` input; see SAFE_UNZIP_DEFAULTS. */
  unzip: Partial<SafeUnzipOptions>;
  /** Written into the GLB's `asset.copyright` (library imports: the credit line). Default: none, the file's own is kept. */
  copyright?: string;
  /** Sees the glTF-Transform document of a converted glTF before it is written (readiness metrics). */
  onDocument?: (document: Document) => void;
}

export const CHECK_MODEL_DEFAULTS: CheckModelOptions = {
  maxBytes: 50_000_000,
  maxReportedIssues: 20,
  unzip: {},
};

export type SourceFormat = 'glb' | 'gltf' | 'zip';

export interface CheckedModel {
  /** The GLB, in an ArrayBuffer of its own (glTF-Transform and the validator need aligned, unshared bytes). */
  glb: Uint8Array;
  sourceFormat: SourceFormat;
  /** The validator's summary: counts and flags, plus its warnings. */
  info: Record<string, unknown>;
}

const NAME = 'check-model';
const GLB_MAGIC = 0x46546c67; // "glTF"
const EXTENSION_FORMAT: Record<string, SourceFormat> = { '.glb': 'glb', '.gltf': 'gltf', '.zip': 'zip' };
const FORMAT_LABEL: Record<SourceFormat, string> = { glb: 'a GLB model', gltf: 'glTF JSON', zip: 'a zip archive' };

/** What the bytes are, from their first bytes only: GLB magic, zip signature or a JSON object. */
export function detectFormat(bytes: Uint8Array): SourceFormat | null {
  if (bytes.length >= 12 && Buffer.from(bytes.buffer, bytes.byteOffset, 4).readUInt32LE(0) === GLB_MAGIC) return 'glb';
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'zip';
  const head = Buffer.from(bytes.subarray(0, 64)).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  return head.startsWith('{') ? 'gltf' : null;
}

/**
 * Checks an untrusted `.glb`, `.gltf` (embedded `data:` resources only) or `.zip` (a `.gltf` with
 * its resources, or a `.glb`) and returns it as a GLB. The name's extension must match the content.
 * Throws ModelFileError: `invalid_file` (details.messages says why, in the validator's shape),
 * `too_large` or `conversion_failed`.
 */
export async function checkModelFile(
  bytes: Uint8Array,
  fileName: string,
  options: Partial<CheckModelOptions> = {},
): Promise<CheckedModel> {
  const opts = { ...CHECK_MODEL_DEFAULTS, ...options };
  if (bytes.length > opts.maxBytes) throw new ModelFileError('too_large', `The file is larger than ${opts.maxBytes} bytes.`);
  const extension = path.extname(fileName).toLowerCase();
  const expected = EXTENSION_FORMAT[extension];
  if (!expected) throw invalidModelFile('UNSUPPORTED_FILE_TYPE', `Unsupported file type "${extension || fileName}": upload a .glb, a .gltf or a .zip.`);
  const format = detectFormat(bytes);
  if (format !== expected) {
    throw invalidModelFile('NOT_GLTF', `The file is named ${extension} but is not ${FORMAT_LABEL[expected]}${format ? ` (it looks like ${FORMAT_LABEL[format]})` : ''}.`);
  }

  if (format === 'glb') {
    const info = await validate(bytes, { format: 'glb', uri: fileName }, new Map(), opts);
    assertKnownRequiredExtensions(info);
    return { glb: withCopyright(ownBytes(bytes), opts), sourceFormat: 'glb', info };
  }
  if (format === 'gltf') {
    const json = parseGltfJson(bytes);
    return { ...(await gltfToGlb(json, null, fileName, opts)), sourceFormat: 'gltf' };
  }
  const files = await safeUnzip(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), opts.unzip);
  return checkModelFiles(files, opts);
}

/**
 * The archive part of the checks, for files already unpacked (a zip read safely, or a library's
 * `.gltf` with its downloaded resources): exactly one model, its resources only from `files`,
 * validated and converted to GLB. `files` maps normalised relative paths to bytes.
 */
export async function checkModelFiles(files: Map<string, Uint8Array>, options: Partial<CheckModelOptions> = {}): Promise<CheckedModel> {
  const opts = { ...CHECK_MODEL_DEFAULTS, ...options };
  const entry = pickModelEntry(files);
  const content = files.get(entry)!;
  if (entry.toLowerCase().endsWith('.glb')) {
    if (detectFormat(content) !== 'glb') throw invalidModelFile('NOT_GLTF', `The archive entry "${entry}" is not a GLB model.`);
    if (content.length > opts.maxBytes) throw new ModelFileError('too_large', `The model "${entry}" is larger than ${opts.maxBytes} bytes.`);
    const info = await validate(content, { format: 'glb', uri: entry }, new Map(), opts);
    assertKnownRequiredExtensions(info);
    return { glb: withCopyright(content, opts), sourceFormat: 'zip', info };
  }
  const json = parseGltfJson(content);
  return { ...(await gltfToGlb(json, { files, baseDir: path.posix.dirname(entry) }, entry, opts)), sourceFormat: 'zip' };
}

const withCopyright = (glb: Uint8Array, opts: CheckModelOptions) => (opts.copyright === undefined ? glb : setGlbCopyright(glb, opts.copyright));

const KNOWN_EXTENSIONS = new Set(ALL_EXTENSIONS.map((extension) => extension.EXTENSION_NAME));

/**
 * A GLB is stored as uploaded (its compression kept), so it is not read by glTF-Transform; a
 * required extension that glTF-Transform does not know would fail there and in viewers, so it
 * is refused the same way a .gltf conversion fails.
 */
function assertKnownRequiredExtensions(info: Record<string, unknown>) {
  const required = Array.isArray(info.extensionsRequired) ? (info.extensionsRequired as string[]) : [];
  const unknown = required.filter((name) => !KNOWN_EXTENSIONS.has(name));
  if (unknown.length > 0) throw new ModelFileError('conversion_failed', `${NAME}: the model requires unsupported extensions (${unknown.join(', ')}).`);
}

/** Exactly one model per archive; the shallowest wins only when it is unambiguous. */
function pickModelEntry(files: Map<string, Uint8Array>): string {
  const candidates = [...files.keys()].filter((name) => /\.(gltf|glb)$/i.test(name));
  if (candidates.length === 0) throw invalidModelFile('ZIP_NO_MODEL', 'The archive holds no .gltf or .glb file.');
  const depth = (name: string) => name.split('/').length;
  const shallowest = Math.min(...candidates.map(depth));
  const top = candidates.filter((name) => depth(name) === shallowest);
  if (top.length > 1) throw invalidModelFile('ZIP_MULTIPLE_MODELS', `The archive holds several models (${top.join(', ')}); upload one per archive.`);
  return top[0];
}

function parseGltfJson(bytes: Uint8Array): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    throw invalidModelFile('INVALID_JSON', `The .gltf file is not valid JSON (${(error as Error).message}).`);
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw invalidModelFile('INVALID_JSON', 'The .gltf file is not a JSON object.');
  return json as Record<string, unknown>;
}

interface Archive {
  files: Map<string, Uint8Array>;
  /** Folder of the `.gltf` inside the archive ("." at the top). */
  baseDir: string;
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * Maps each external URI of buffers and images to bytes from the archive, keyed by the URI
 * exactly as written (what glTF-Transform's readJSON and the validator look up). URIs must stay
 * inside the archive: `..`, absolute paths and schemes other than data: are refused; a plain
 * `.gltf` upload has no archive, so any external URI is refused there.
 */
function resolveResources(json: Record<string, unknown>, archive: Archive | null): Map<string, Uint8Array> {
  const resources = new Map<string, Uint8Array>();
  for (const holder of [...asArray(json.buffers), ...asArray(json.images)]) {
    const uri = (holder as { uri?: unknown } | null)?.uri;
    if (typeof uri !== 'string' || uri.startsWith('data:')) continue; // a malformed uri is the validator's to report
    if (!archive) throw invalidModelFile('EXTERNAL_RESOURCE', `The .gltf references the external file "${uri}": upload a .zip with its resources, or a .glb.`);
    if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.startsWith('//')) {
      throw invalidModelFile('EXTERNAL_RESOURCE', `The model references a URL ("${uri}"); only files inside the archive are allowed.`);
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(uri);
    } catch {
      throw invalidModelFile('RESOURCE_URI_INVALID', `The resource URI "${uri}" is malformed.`);
    }
    const resolved = path.posix.normalize(path.posix.join(archive.baseDir, decoded.replace(/\\/g, '/')));
    if (resolved === '..' || resolved.startsWith('../') || path.posix.isAbsolute(resolved) || decoded.includes('\0')) {
      throw invalidModelFile('RESOURCE_PATH_ESCAPE', `The resource "${uri}" points outside the archive.`);
    }
    const data = archive.files.get(resolved);
    if (!data) throw invalidModelFile('RESOURCE_MISSING', `The archive is missing the resource "${uri}".`);
    resources.set(uri, data);
  }
  return resources;
}

async function gltfToGlb(
  json: Record<string, unknown>,
  archive: Archive | null,
  uri: string,
  opts: CheckModelOptions,
): Promise<Omit<CheckedModel, 'sourceFormat'>> {
  const resources = resolveResources(json, archive);
  const info = await validate(new TextEncoder().encode(JSON.stringify(json)), { format: 'gltf', uri }, resources, opts);
  let glb: Uint8Array;
  try {
    const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
    const document = await io.readJSON({ json, resources: Object.fromEntries(resources) } as unknown as JSONDocument);
    if (opts.copyright !== undefined) document.getRoot().getAsset().copyright = opts.copyright;
    opts.onDocument?.(document);
    glb = await io.writeBinary(document);
  } catch (error) {
    throw new ModelFileError('conversion_failed', `${NAME}: the model could not be converted to GLB (${(error as Error).message}).`);
  }
  if (glb.length > opts.maxBytes) throw new ModelFileError('too_large', `The converted model is larger than ${opts.maxBytes} bytes.`);
  return { glb, info };
}

/**
 * The validator (compiled Dart) reads the whole underlying ArrayBuffer and ignores a view's
 * offset, so a Buffer from Node's shared pool must be copied into one of its own first.
 */
function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
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
    report = await validator.validateBytes(ownBytes(bytes), {
      uri: meta.uri,
      format: meta.format,
      maxIssues: 200,
      writeTimestamp: false,
      externalResourceFunction: (uri) => {
        const data = resources.get(uri);
        // A GLB's external URIs have no archive to come from: the validator reports IO_ERROR.
        return data ? Promise.resolve(ownBytes(data)) : Promise.reject(new Error(`The resource "${uri}" is not available.`));
      },
    });
  } catch (error) {
    const reason = typeof error === 'string' ? error : String((error as Error)?.message ?? error);
    throw invalidModelFile('NOT_GLTF', `The file is not a valid glTF model (${reason}).`);
  }
  const messages: ModelFileIssue[] = report.issues.messages.map(({ code, message, severity, pointer }) => ({ code, message, severity, ...(pointer ? { pointer } : {}) }));
  if (report.issues.numErrors > 0) {
    const errors = messages.filter((m) => m.severity === 0).slice(0, opts.maxReportedIssues);
    throw new ModelFileError(
      'invalid_file',
      `The glTF validator found ${report.issues.numErrors} error(s): ${errors.slice(0, 3).map((e) => e.message).join('; ')}`,
      { validatorVersion: report.validatorVersion, numErrors: report.issues.numErrors, messages: errors },
    );
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
