import path from 'node:path';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { ModelFileError, invalidModelFile } from './model-file-error.js';
import { ownBytes, validateGltf as validate } from './validate-gltf.js';
import { safeUnzip, type SafeUnzipOptions } from './safe-unzip.js';
import { setGlbCopyright } from './glb-copyright.js';
import { packGlb } from './pack-glb.js';
import { glbOutline } from './model-outline.js';
import type { Outline } from '../../wire/outline.js';

/**
 * One check for uploads and library imports: an untrusted file in memory in, a validated GLB out. Nothing is
 * written and resources resolve only inside the archive, so a refused file leaves no trace.
 */
export interface CheckModelOptions {
  /** Largest input file and largest resulting GLB. Default 50 MB. */
  maxBytes: number;
  /** Validator messages reported back with a refusal or kept as warnings. Default 20. */
  maxReportedIssues: number;
  /** The codes the validator reports as errors (server/core/platform/gltf-validator-error-codes.ts). Required. */
  validatorErrorCodes: readonly string[];
  /** Limits for `.zip` input; see SAFE_UNZIP_DEFAULTS. */
  unzip: Partial<SafeUnzipOptions>;
  /**
   * Written into the GLB's `asset.copyright` (library imports: the credit line). Default: none,
   * the file's own is kept.
   */
  copyright?: string;
}

const CHECK_MODEL_DEFAULTS: Omit<CheckModelOptions, 'validatorErrorCodes'> = {
  maxBytes: 50_000_000,
  maxReportedIssues: 20,
  unzip: {},
};

/** Options of the steps that run the validator: `validatorErrorCodes` has no default. */
export type ValidateModelOptions = Partial<CheckModelOptions> & Pick<CheckModelOptions, 'validatorErrorCodes'>;

export type SourceFormat = 'glb' | 'gltf' | 'zip';

export interface CheckedModel {
  /** The GLB, in an ArrayBuffer of its own (glTF-Transform and the validator need aligned, unshared bytes). */
  glb: Uint8Array;
  sourceFormat: SourceFormat;
  /** The validator's summary: counts and flags, plus its warnings. */
  info: Record<string, unknown>;
  /** What the GLB names and holds (model-outline.ts), stored with the asset. */
  outline: Outline;
}

const GLB_MAGIC = 0x46546c67; // "glTF"
const EXTENSION_FORMAT: Record<string, SourceFormat> = { '.glb': 'glb', '.gltf': 'gltf', '.zip': 'zip' };
const FORMAT_LABEL: Record<SourceFormat, string> = { glb: 'a GLB model', gltf: 'glTF JSON', zip: 'a zip archive' };

/** What the bytes are, from their first bytes only: GLB magic, zip signature or a JSON object. */
export function detectFormat(bytes: Uint8Array): SourceFormat | null {
  if (bytes.length >= 12 && Buffer.from(bytes.buffer, bytes.byteOffset, 4).readUInt32LE(0) === GLB_MAGIC) return 'glb';
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04)
    return 'zip';
  const head = Buffer.from(bytes.subarray(0, 64))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return head.startsWith('{') ? 'gltf' : null;
}

/**
 * A model past the structural checks, not yet validated nor converted. Read-only: its bytes may be
 * SharedArrayBuffers that imports hand to two pool threads at once.
 */
export type ModelParts =
  | { format: 'glb'; sourceFormat: SourceFormat; entry: string; glb: Uint8Array }
  | {
      format: 'gltf';
      sourceFormat: SourceFormat;
      entry: string;
      json: Record<string, unknown>;
      resources: Map<string, Uint8Array>;
    };

/**
 * A `.glb`, `.gltf` (embedded `data:` only) or `.zip` as one GLB; the extension must match the content.
 * Throws ModelFileError `invalid_file` (details.messages in the validator's shape), `too_large` or `conversion_failed`.
 */
export async function checkModelFile(
  bytes: Uint8Array,
  fileName: string,
  options: ValidateModelOptions,
): Promise<CheckedModel> {
  const opts = { ...CHECK_MODEL_DEFAULTS, ...options };
  return checkParts(await unpackModelFile(bytes, fileName, opts), opts);
}

/** The two checks in their order: the validator first (its refusal wins), then the conversion. */
async function checkParts(parts: ModelParts, opts: CheckModelOptions): Promise<CheckedModel> {
  const info = await validateModel(parts, opts);
  const { glb } = await convertModel(parts, opts);
  return { glb, sourceFormat: parts.sourceFormat, info, outline: await glbOutline(glb) };
}

/** Step 1 for one uploaded file: its type, its size, and (a zip) its safe unpacking. */
export async function unpackModelFile(
  bytes: Uint8Array,
  fileName: string,
  options: Partial<CheckModelOptions> = {},
): Promise<ModelParts> {
  const opts = { ...CHECK_MODEL_DEFAULTS, ...options };
  if (bytes.length > opts.maxBytes)
    throw new ModelFileError('too_large', `The file is larger than ${opts.maxBytes} bytes.`);
  const extension = path.extname(fileName).toLowerCase();
  const expected = EXTENSION_FORMAT[extension];
  if (!expected)
    throw invalidModelFile(
      'UNSUPPORTED_FILE_TYPE',
      `Unsupported file type "${extension || fileName}": upload a .glb, a .gltf or a .zip.`,
    );
  const format = detectFormat(bytes);
  if (format !== expected) {
    const looksLike = format ? ` (it looks like ${FORMAT_LABEL[format]})` : '';
    throw invalidModelFile(
      'NOT_GLTF',
      `The file is named ${extension} but is not ${FORMAT_LABEL[expected]}${looksLike}.`,
    );
  }
  if (format === 'glb') return { format: 'glb', sourceFormat: 'glb', entry: fileName, glb: bytes };
  if (format === 'gltf') {
    const json = parseGltfJson(bytes);
    return { format: 'gltf', sourceFormat: 'gltf', entry: fileName, json, resources: resolveResources(json, null) };
  }
  const files = await safeUnzip(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), opts.unzip);
  return unpackModelFiles(files, opts);
}

/** Step 1 for unpacked files: exactly one model, its resources only from `files`, its size. */
export function unpackModelFiles(files: Map<string, Uint8Array>, options: Partial<CheckModelOptions> = {}): ModelParts {
  const opts = { ...CHECK_MODEL_DEFAULTS, ...options };
  const entry = pickModelEntry(files);
  const content = files.get(entry)!;
  if (entry.toLowerCase().endsWith('.glb')) {
    if (detectFormat(content) !== 'glb')
      throw invalidModelFile('NOT_GLTF', `The archive entry "${entry}" is not a GLB model.`);
    if (content.length > opts.maxBytes)
      throw new ModelFileError('too_large', `The model "${entry}" is larger than ${opts.maxBytes} bytes.`);
    return { format: 'glb', sourceFormat: 'zip', entry, glb: content };
  }
  const json = parseGltfJson(content);
  return {
    format: 'gltf',
    sourceFormat: 'zip',
    entry,
    json,
    resources: resolveResources(json, { files, baseDir: path.posix.dirname(entry) }),
  };
}

/** Step 2: the Khronos validator on the model as it came; a kept GLB must also need only extensions we know. */
export async function validateModel(
  parts: ModelParts,
  options: ValidateModelOptions,
): Promise<Record<string, unknown>> {
  const opts = { ...CHECK_MODEL_DEFAULTS, ...options };
  if (parts.format === 'glb') {
    const info = await validate(parts.glb, { format: 'glb', uri: parts.entry }, new Map(), opts);
    assertKnownRequiredExtensions(info);
    return info;
  }
  return validate(
    new TextEncoder().encode(JSON.stringify(parts.json)),
    { format: 'gltf', uri: parts.entry },
    parts.resources,
    opts,
  );
}

/**
 * Step 3: the GLB to store (a glTF packed as it is, a GLB byte for byte). Independent of step 2,
 * so both may run at once.
 */
export async function convertModel(
  parts: ModelParts,
  options: Partial<CheckModelOptions> = {},
): Promise<{ glb: Uint8Array }> {
  const opts = { ...CHECK_MODEL_DEFAULTS, ...options };
  if (parts.format === 'glb') return { glb: withCopyright(ownBytes(withoutExtraData(parts.glb)), opts) };
  assertKnownRequiredExtensions(parts.json);
  try {
    return { glb: packGlb(parts.json, parts.resources, opts) };
  } catch (error) {
    if (error instanceof ModelFileError) throw error;
    // The packing reads only buffers, buffer views and images: anything else it trips on is their shape.
    throw new ModelFileError(
      'conversion_failed',
      'The model could not be converted: its buffers, buffer views or images do not follow the glTF 2.0 schema.',
    );
  }
}

/**
 * The GLB as long as its header says: bytes after it are no part of it (the validator only warns, GLB_EXTRA_DATA)
 * and glTF-Transform would read them as a chunk.
 */
function withoutExtraData(glb: Uint8Array): Uint8Array {
  const declaredLength = new DataView(glb.buffer, glb.byteOffset, glb.byteLength).getUint32(8, true);
  return declaredLength < glb.byteLength ? glb.subarray(0, declaredLength) : glb;
}

const withCopyright = (glb: Uint8Array, opts: Pick<CheckModelOptions, 'copyright'>) =>
  opts.copyright === undefined ? glb : setGlbCopyright(glb, opts.copyright);

const KNOWN_EXTENSIONS = new Set(ALL_EXTENSIONS.map((extension) => extension.EXTENSION_NAME));

/**
 * Models are stored as they came, so a required extension glTF-Transform does not know would fail
 * later in the readiness checks and in viewers: refuse it now.
 */
function assertKnownRequiredExtensions(model: Record<string, unknown>) {
  const required = Array.isArray(model.extensionsRequired) ? model.extensionsRequired : [];
  const unknown = required.filter((name) => !KNOWN_EXTENSIONS.has(String(name)));
  if (unknown.length > 0)
    throw new ModelFileError(
      'conversion_failed',
      `The model could not be converted: it requires extensions this service does not support (${unknown.join(', ')}).`,
    );
}

/** Exactly one model per archive; the shallowest wins only when it is unambiguous. */
function pickModelEntry(files: Map<string, Uint8Array>): string {
  const candidates = [...files.keys()].filter((name) => /\.(gltf|glb)$/i.test(name));
  if (candidates.length === 0) throw invalidModelFile('ZIP_NO_MODEL', 'The archive holds no .gltf or .glb file.');
  const depth = (name: string) => name.split('/').length;
  const shallowest = Math.min(...candidates.map(depth));
  const top = candidates.filter((name) => depth(name) === shallowest);
  if (top.length > 1)
    throw invalidModelFile(
      'ZIP_MULTIPLE_MODELS',
      `The archive holds several models (${top.join(', ')}); upload one per archive.`,
    );
  return top[0];
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** The glTF JSON; refused as the validator refuses it (INVALID_JSON): a BOM, or text that is not JSON. */
function parseGltfJson(bytes: Uint8Array): Record<string, unknown> {
  if (UTF8_BOM.every((byte, i) => bytes[i] === byte))
    throw invalidModelFile(
      'INVALID_JSON',
      'The .gltf file starts with a byte order mark (BOM): glTF JSON must be UTF-8 without one.',
    );
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    throw invalidModelFile(
      'INVALID_JSON',
      'The .gltf file is not valid JSON: glTF JSON must be one UTF-8 JSON object.',
    );
  }
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw invalidModelFile('INVALID_JSON', 'The .gltf file is not a JSON object.');
  return json as Record<string, unknown>;
}

interface Archive {
  files: Map<string, Uint8Array>;
  /** Folder of the `.gltf` inside the archive ("." at the top). */
  baseDir: string;
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * External URIs mapped to archive bytes, keyed as written (what readJSON and the validator look up).
 * URIs must stay inside the archive: `..`, absolute paths and non-data: schemes are refused.
 */
function resolveResources(json: Record<string, unknown>, archive: Archive | null): Map<string, Uint8Array> {
  const resources = new Map<string, Uint8Array>();
  for (const holder of [...asArray(json.buffers), ...asArray(json.images)]) {
    const uri = (holder as { uri?: unknown } | null)?.uri;
    if (typeof uri !== 'string' || uri.startsWith('data:')) continue; // a malformed uri is the validator's to report
    if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.startsWith('//'))
      throw invalidModelFile(
        'EXTERNAL_RESOURCE',
        `The model references the URL "${uri}": URLs are never fetched; ` +
          'embed the resource (a data: URI or a .glb) or upload a .zip with the file inside.',
      );
    if (!archive)
      throw invalidModelFile(
        'EXTERNAL_RESOURCE',
        `The .gltf references the external file "${uri}": upload a .zip with its resources, or a .glb.`,
      );
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
