import { ModelFileError } from './model-file-error.js';

/**
 * Packs a glTF into one GLB without reinterpreting it, so a model the validator passes stays the same model
 * (a round trip through a scene library would keep only what that library models).
 */
export interface PackGlbOptions {
  /** Largest GLB written; past it the packing stops with `too_large`. */
  maxBytes: number;
  /** Written into `asset.copyright` when given. */
  copyright?: string;
}

type Json = Record<string, unknown>;

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a; // "JSON"
const CHUNK_BIN = 0x004e4942; // "BIN\0"
const GLB_HEADER_BYTES = 12;
const CHUNK_HEADER_BYTES = 8;
/** Each buffer starts on a 4-byte boundary (the largest component size), so every accessor stays aligned. */
const ALIGNMENT = 4;
/** The meshopt extensions keep their compressed data in a buffer of their own, referenced by index. */
const MESHOPT_EXTENSIONS = ['EXT_meshopt_compression', 'KHR_meshopt_compression'];
const IMAGE_SIGNATURES: Array<{ mimeType: string; matches: (bytes: Uint8Array) => boolean }> = [
  { mimeType: 'image/png', matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mimeType: 'image/jpeg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  {
    mimeType: 'image/webp',
    matches: (b) => startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
  },
  { mimeType: 'image/ktx2', matches: (b) => startsWith(b, [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb]) },
  // An ISO media file ("ftyp" at byte 4) of brand avif (still image) or avis (image sequence).
  { mimeType: 'image/avif', matches: (b) => /^ftypavi[fs]$/.test(Buffer.from(b.subarray(4, 12)).toString('latin1')) },
];

const startsWith = (bytes: Uint8Array, prefix: number[]) =>
  bytes.length >= prefix.length && prefix.every((value, i) => bytes[i] === value);
const alignUp = (offset: number) => Math.ceil(offset / ALIGNMENT) * ALIGNMENT;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
const isIndex = (value: unknown, length: number): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) < length;

/** A refusal of the conversion whose message says which glTF rule the model breaks. */
const unconvertible = (rule: string) =>
  new ModelFileError('conversion_failed', `The model could not be converted: ${rule}`);

/** A `data:` URI's media type and bytes (base64 only, as glTF writes them); null when it is not one. */
function decodeDataUri(uri: string): { mimeType: string; bytes: Uint8Array } | null {
  const match = /^data:([^;,]*)((?:;[^;,]*)*);base64,(.*)$/s.exec(uri);
  if (!match) return null;
  return { mimeType: match[1], bytes: new Uint8Array(Buffer.from(match[3], 'base64')) };
}

/** The bytes behind a buffer's or image's `uri`: a data URI, or the resource given under that exact URI. */
function resourceBytes(uri: string, resources: Map<string, Uint8Array>, what: string) {
  if (uri.startsWith('data:')) {
    const decoded = decodeDataUri(uri);
    if (!decoded) throw unconvertible(`${what} has a data URI that is not base64-encoded.`);
    return decoded;
  }
  const bytes = resources.get(uri);
  if (!bytes) throw unconvertible(`${what} refers to "${uri}", which was not uploaded with it.`);
  return { mimeType: '', bytes };
}

/** The media type of an image: as declared, else from its data URI, else from its first bytes. */
function imageMimeType(image: Json, declared: string, bytes: Uint8Array, index: number): string {
  if (typeof image.mimeType === 'string' && image.mimeType) return image.mimeType;
  if (declared.startsWith('image/')) return declared;
  const sniffed = IMAGE_SIGNATURES.find((signature) => signature.matches(bytes))?.mimeType;
  if (sniffed) return sniffed;
  throw unconvertible(
    `image ${index} is not a PNG, JPEG, WebP, AVIF or KTX2 image; an image stored inside a GLB needs its media type.`,
  );
}

/** Lays byte arrays out one after the other, each on a 4-byte boundary; bounded by `maxBytes`. */
class BinaryChunk {
  readonly parts: Array<{ offset: number; bytes: Uint8Array }> = [];
  length = 0;
  constructor(private readonly maxBytes: number) {}

  add(bytes: Uint8Array): number {
    const offset = alignUp(this.length);
    this.length = offset + bytes.length;
    if (this.length > this.maxBytes)
      throw new ModelFileError('too_large', `The converted model is larger than ${this.maxBytes} bytes.`);
    this.parts.push({ offset, bytes });
    return offset;
  }
}

/**
 * Buffers with data join buffer 0, the GLB's binary chunk; those without (a meshopt fallback) stay after it.
 * Returns where each original buffer went.
 */
function mergeBuffers(json: Json, resources: Map<string, Uint8Array>, chunk: BinaryChunk) {
  const buffers = objects(json.buffers);
  if (buffers.length !== (Array.isArray(json.buffers) ? json.buffers.length : 0))
    throw unconvertible('every entry of "buffers" must be an object.');
  const referenced = new Set(objects(json.bufferViews).map((view) => view.buffer));
  const kept: Json[] = [];
  const moved = buffers.map((buffer, index): { buffer: number; offset: number } | null => {
    if (typeof buffer.uri !== 'string') {
      // A buffer without data that nothing reads is dropped; one that is read keeps its place.
      if (!referenced.has(index)) return null;
      kept.push(buffer);
      return { buffer: kept.length, offset: 0 };
    }
    const { bytes } = resourceBytes(buffer.uri, resources, `buffer ${index}`);
    const byteLength = buffer.byteLength;
    if (!Number.isInteger(byteLength) || (byteLength as number) < 0 || (byteLength as number) > bytes.length)
      throw unconvertible(`buffer ${index} declares ${String(byteLength)} bytes but holds ${bytes.length}.`);
    return { buffer: 0, offset: chunk.add(bytes.subarray(0, byteLength as number)) };
  });
  return { moved, kept };
}

/** Points every buffer view (and the meshopt data it compresses) at its buffer's new place. */
function moveBufferViews(json: Json, moved: Array<{ buffer: number; offset: number } | null>) {
  objects(json.bufferViews).forEach((view, index) => {
    const targets = [
      view,
      ...MESHOPT_EXTENSIONS.map((name) => (isObject(view.extensions) ? view.extensions[name] : null)),
    ];
    for (const target of targets.filter(isObject)) {
      const place = isIndex(target.buffer, moved.length) ? moved[target.buffer] : null;
      if (!place) throw unconvertible(`buffer view ${index} refers to a buffer that does not exist or holds no data.`);
      const byteOffset = target.byteOffset ?? 0;
      if (!Number.isInteger(byteOffset)) throw unconvertible(`buffer view ${index} has an invalid byteOffset.`);
      target.buffer = place.buffer;
      target.byteOffset = (byteOffset as number) + place.offset;
    }
  });
}

/** Stores every image given by URI in a buffer view of the binary chunk. */
function embedImages(json: Json, resources: Map<string, Uint8Array>, chunk: BinaryChunk) {
  objects(json.images).forEach((image, index) => {
    if (typeof image.uri !== 'string') return;
    const { mimeType, bytes } = resourceBytes(image.uri, resources, `image ${index}`);
    image.mimeType = imageMimeType(image, mimeType, bytes, index);
    const views = Array.isArray(json.bufferViews) ? json.bufferViews : (json.bufferViews = []);
    views.push({ buffer: 0, byteOffset: chunk.add(bytes), byteLength: bytes.length });
    image.bufferView = views.length - 1;
    delete image.uri;
  });
}

/** The GLB container: a 12-byte header, the JSON chunk (space-padded), the binary chunk (zero-padded). */
function writeGlb(json: Json, chunk: BinaryChunk, maxBytes: number): Uint8Array {
  const text = Buffer.from(JSON.stringify(json), 'utf8');
  const jsonLength = alignUp(text.length);
  const binLength = chunk.parts.length > 0 ? alignUp(chunk.length) : 0;
  const total =
    GLB_HEADER_BYTES + CHUNK_HEADER_BYTES + jsonLength + (binLength > 0 ? CHUNK_HEADER_BYTES + binLength : 0);
  if (total > maxBytes) throw new ModelFileError('too_large', `The converted model is larger than ${maxBytes} bytes.`);
  const glb = Buffer.alloc(total);
  glb.writeUInt32LE(GLB_MAGIC, 0);
  glb.writeUInt32LE(2, 4);
  glb.writeUInt32LE(total, 8);
  glb.writeUInt32LE(jsonLength, 12);
  glb.writeUInt32LE(CHUNK_JSON, 16);
  glb.fill(0x20, 20, 20 + jsonLength);
  text.copy(glb, 20);
  if (binLength > 0) {
    const binStart = 20 + jsonLength;
    glb.writeUInt32LE(binLength, binStart);
    glb.writeUInt32LE(CHUNK_BIN, binStart + 4);
    for (const { offset, bytes } of chunk.parts) glb.set(bytes, binStart + CHUNK_HEADER_BYTES + offset);
  }
  return new Uint8Array(glb.buffer, glb.byteOffset, glb.byteLength);
}

/**
 * The GLB of a glTF whose external resources are in `resources` (keyed by URI as written); `json` is
 * not modified. Throws ModelFileError `conversion_failed` naming the broken rule, or `too_large`.
 */
export function packGlb(source: Json, resources: Map<string, Uint8Array>, options: PackGlbOptions): Uint8Array {
  const json = structuredClone(source);
  if (!isObject(json.asset)) throw unconvertible('the model has no "asset" object.');
  if (options.copyright !== undefined) json.asset.copyright = options.copyright;
  const chunk = new BinaryChunk(options.maxBytes);
  const { moved, kept } = mergeBuffers(json, resources, chunk);
  moveBufferViews(json, moved);
  embedImages(json, resources, chunk);
  // A GLB's buffer 0 is its binary chunk: buffers without data (a .gltf may declare them) follow a small
  // placeholder when no buffer holds data, as their data stays undefined rather than becoming zeros.
  if (chunk.parts.length === 0 && kept.length > 0) chunk.add(new Uint8Array(ALIGNMENT));
  const binary = chunk.parts.length > 0 ? [{ byteLength: chunk.length }] : [];
  const buffers = [...binary, ...kept];
  if (buffers.length > 0) json.buffers = buffers;
  else delete json.buffers;
  return writeGlb(json, chunk, options.maxBytes);
}
