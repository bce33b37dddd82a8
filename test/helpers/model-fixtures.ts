import { deflateSync, crc32 } from 'node:zlib';
import { Document, Format, NodeIO, type JSONDocument } from '@gltf-transform/core';
import { strToU8, zipSync, type Zippable } from 'fflate';

/**
 * Test models generated with the glTF-Transform Document API (no sample files are shipped):
 * a small valid chair in every accepted upload shape, and hostile files for the refusals.
 */

const io = new NodeIO();

/** A tiny RGBA PNG with a checker pattern (noise-free but not a solid colour). */
export function makePng(width = 4, height = 4): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < width; x++) rows.push(...((x + y) % 2 ? [160, 110, 60, 255] : [120, 80, 40, 255]));
  }
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.from(rows))),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** A unit box scaled to `size`: 24 vertices, 12 triangles, normals and UVs. */
function boxArrays([sx, sy, sz]: [number, number, number]) {
  const faces: Array<{ n: [number, number, number]; u: [number, number, number]; v: [number, number, number] }> = [
    { n: [1, 0, 0], u: [0, 0, -1], v: [0, 1, 0] },
    { n: [-1, 0, 0], u: [0, 0, 1], v: [0, 1, 0] },
    { n: [0, 1, 0], u: [1, 0, 0], v: [0, 0, -1] },
    { n: [0, -1, 0], u: [1, 0, 0], v: [0, 0, 1] },
    { n: [0, 0, 1], u: [1, 0, 0], v: [0, 1, 0] },
    { n: [0, 0, -1], u: [-1, 0, 0], v: [0, 1, 0] },
  ];
  const position: number[] = [];
  const normal: number[] = [];
  const uv: number[] = [];
  const index: number[] = [];
  faces.forEach(({ n, u, v }, f) => {
    for (const [a, b] of [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ]) {
      position.push(
        ((n[0] + a * u[0] + b * v[0]) * sx) / 2,
        ((n[1] + a * u[1] + b * v[1]) * sy) / 2,
        ((n[2] + a * u[2] + b * v[2]) * sz) / 2,
      );
      normal.push(...n);
      uv.push((a + 1) / 2, (1 - b) / 2);
    }
    index.push(f * 4, f * 4 + 1, f * 4 + 2, f * 4, f * 4 + 2, f * 4 + 3);
  });
  return {
    position: new Float32Array(position),
    normal: new Float32Array(normal),
    uv: new Float32Array(uv),
    index: new Uint16Array(index),
  };
}

/** The test chair: a textured seat and four instances of one metal leg mesh, 0.45 × 0.49 × 0.45 m. */
export function chairDocument(): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (type: 'VEC3' | 'VEC2' | 'SCALAR', array: Float32Array | Uint16Array) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const texture = doc.createTexture('wood').setImage(makePng()).setMimeType('image/png').setURI('textures/x.png');
  const wood = doc.createMaterial('Wood').setBaseColorTexture(texture).setRoughnessFactor(0.8).setMetallicFactor(0);
  const metal = doc
    .createMaterial('Metal')
    .setBaseColorFactor([0.6, 0.6, 0.65, 1])
    .setRoughnessFactor(0.3)
    .setMetallicFactor(1);
  const box = (material: typeof wood, size: [number, number, number], withUv: boolean) => {
    const a = boxArrays(size);
    const primitive = doc
      .createPrimitive()
      .setAttribute('POSITION', accessor('VEC3', a.position))
      .setAttribute('NORMAL', accessor('VEC3', a.normal))
      .setIndices(accessor('SCALAR', a.index))
      .setMaterial(material);
    if (withUv) primitive.setAttribute('TEXCOORD_0', accessor('VEC2', a.uv));
    return primitive;
  };
  const chair = doc.createNode('Chair');
  chair.addChild(
    doc
      .createNode('Seat')
      .setMesh(doc.createMesh('Seat').addPrimitive(box(wood, [0.45, 0.04, 0.45], true)))
      .setTranslation([0, 0.47, 0]),
  );
  const leg = doc.createMesh('Leg').addPrimitive(box(metal, [0.03, 0.45, 0.03], false));
  [
    [-0.2, -0.2],
    [0.2, -0.2],
    [-0.2, 0.2],
    [0.2, 0.2],
  ].forEach(([x, z], i) =>
    chair.addChild(
      doc
        .createNode(`Leg_${i + 1}`)
        .setMesh(leg)
        .setTranslation([x, 0.225, z]),
    ),
  );
  const scene = doc.createScene('Scene').addChild(chair);
  doc.getRoot().setDefaultScene(scene);
  return doc;
}

/** The chair as one GLB. */
export function chairGlb(): Promise<Uint8Array> {
  return io.writeBinary(chairDocument());
}

/** The chair as `scene.gltf` + `scene.bin` + `textures/x.png` (resources keyed by their URI). */
export function chairGltfFiles(): Promise<JSONDocument> {
  return io.writeJSON(chairDocument(), { format: Format.GLTF, basename: 'scene' });
}

const dataUri = (mimeType: string, bytes: Uint8Array) =>
  `data:${mimeType};base64,${Buffer.from(bytes).toString('base64')}`;

/** Turns every external buffer and image URI into a `data:` URI. */
export function embedResources({ json, resources }: JSONDocument): Record<string, unknown> {
  const copy = structuredClone(json) as unknown as {
    buffers?: Array<{ uri?: string }>;
    images?: Array<{ uri?: string; mimeType?: string }>;
  };
  for (const b of copy.buffers ?? []) if (b.uri) b.uri = dataUri('application/octet-stream', resources[b.uri]);
  for (const i of copy.images ?? []) if (i.uri) i.uri = dataUri(i.mimeType ?? 'image/png', resources[i.uri]);
  return copy as Record<string, unknown>;
}

export const jsonBytes = (json: unknown) => strToU8(JSON.stringify(json));

/** The chair as a single `.gltf` with embedded (data:) buffers and images. */
export async function chairGltfEmbedded(): Promise<Uint8Array> {
  return jsonBytes(embedResources(await chairGltfFiles()));
}

/** The chair as a zip of `scene.gltf`, `scene.bin` and `textures/x.png` (optionally under a folder). */
export async function chairZip(prefix = ''): Promise<Uint8Array> {
  const { json, resources } = await chairGltfFiles();
  const entries: Zippable = { [`${prefix}scene.gltf`]: jsonBytes(json) };
  for (const [uri, bytes] of Object.entries(resources)) entries[`${prefix}${uri}`] = bytes;
  return zipSync(entries);
}

/** The chair GLB inside a zip. */
export async function chairGlbZip(): Promise<Uint8Array> {
  return zipSync({ 'chair.glb': await chairGlb() });
}

// ---------------------------------------------------------------- hostile files

/** A zip whose model entry tries to leave the archive (`../x.gltf`). */
export async function zipSlip(): Promise<Uint8Array> {
  return zipSync({ '../x.gltf': jsonBytes((await chairGltfFiles()).json) });
}

/** A zip holding another archive next to a model. */
export async function nestedZip(): Promise<Uint8Array> {
  return zipSync({ 'inner.zip': await chairZip(), 'chair.glb': await chairGlb() });
}

/** A zip bomb that declares its size honestly: one entry inflating to `megabytes` of zeros. */
export async function zipBomb(megabytes = 60): Promise<Uint8Array> {
  const { json } = await chairGltfFiles();
  return zipSync({
    'scene.gltf': jsonBytes(json),
    'scene.bin': [new Uint8Array(megabytes * 1024 * 1024), { level: 9 }],
  });
}

/**
 * A zip bomb whose size fields lie: `scene.bin` inflates to `megabytes` of zeros but claims
 * `claimedBytes`. Patched in the local header (offset 22) and the central directory (offset 24).
 */
export async function lyingZipBomb(megabytes = 20, claimedBytes = 1000): Promise<Uint8Array> {
  const zip = Buffer.from(await zipBomb(megabytes));
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const entries = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < entries; i++) {
    const nameLength = zip.readUInt16LE(offset + 28);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    if (name === 'scene.bin') {
      zip.writeUInt32LE(claimedBytes, offset + 24);
      zip.writeUInt32LE(claimedBytes, zip.readUInt32LE(offset + 42) + 22);
    }
    offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  return new Uint8Array(zip);
}

/** Bytes that are not a model at all (to be uploaded as `.glb`). */
export function notAModel(): Uint8Array {
  return strToU8('%PDF-1.4\nThis is not a glTF file, whatever its name says.\n');
}

/** `bytes` of zeros: larger than the upload limit when above 50 MB. */
export function hugeFile(megabytes = 60): Uint8Array {
  return new Uint8Array(megabytes * 1024 * 1024);
}

/** A `.gltf` whose image points at `../../etc/hostname` (a path traversal through resource URIs). */
export async function traversalGltf(): Promise<Record<string, unknown>> {
  const json = embedResources(await chairGltfFiles()) as { images: Array<{ uri: string }> };
  json.images[0].uri = '../../etc/hostname';
  return json;
}

/** The chair zip, but `scene.gltf` points its image at `../../etc/hostname`. */
export async function traversalZip(): Promise<Uint8Array> {
  const { json, resources } = await chairGltfFiles();
  const hostile = structuredClone(json) as unknown as { images: Array<{ uri: string }> };
  hostile.images[0].uri = '../../etc/hostname';
  return zipSync({ 'scene.gltf': jsonBytes(hostile), 'scene.bin': resources['scene.bin'] });
}

/** An embedded `.gltf` the Khronos validator refuses: an accessor reaches past its buffer view. */
export async function outOfBoundsGltf(): Promise<Record<string, unknown>> {
  const json = embedResources(await chairGltfFiles()) as { accessors: Array<{ count: number }> };
  json.accessors[0].count *= 1000;
  return json;
}

/** Rewrites the JSON chunk of a GLB (padding and lengths fixed up), keeping the binary chunk. */
export function patchGlbJson(glb: Uint8Array, mutate: (json: Record<string, unknown>) => void): Uint8Array {
  const source = Buffer.from(glb);
  const jsonLength = source.readUInt32LE(12);
  const json = JSON.parse(source.toString('utf8', 20, 20 + jsonLength));
  mutate(json);
  let text = Buffer.from(JSON.stringify(json));
  if (text.length % 4) text = Buffer.concat([text, Buffer.alloc(4 - (text.length % 4), 0x20)]);
  const rest = source.subarray(20 + jsonLength);
  const header = Buffer.alloc(20);
  header.writeUInt32LE(0x46546c67, 0);
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(20 + text.length + rest.length, 8);
  header.writeUInt32LE(text.length, 12);
  header.writeUInt32LE(0x4e4f534a, 16); // "JSON"
  return new Uint8Array(Buffer.concat([header, text, rest]));
}

/** A GLB that requires an extension nobody implements (passes the validator, cannot be processed). */
export async function unknownExtensionGlb(): Promise<Uint8Array> {
  return patchGlbJson(await chairGlb(), (json) => {
    json.extensionsUsed = ['EXT_made_up'];
    json.extensionsRequired = ['EXT_made_up'];
  });
}

/** The same as a `.gltf`: glTF-Transform refuses to convert it (422 conversion_failed). */
export async function unknownExtensionGltf(): Promise<Uint8Array> {
  const json = embedResources(await chairGltfFiles());
  json.extensionsUsed = ['EXT_made_up'];
  json.extensionsRequired = ['EXT_made_up'];
  return jsonBytes(json);
}

/** A GLB the validator refuses: an accessor reaches past its buffer view. */
export async function outOfBoundsGlb(): Promise<Uint8Array> {
  return patchGlbJson(await chairGlb(), (json) => {
    (json.accessors as Array<{ count: number }>)[0].count *= 1000;
  });
}

/** A fetch FormData with the file in field `file` (and an optional display name). */
export function uploadForm(bytes: Uint8Array, fileName: string, name?: string): FormData {
  const form = new FormData();
  if (name !== undefined) form.append('name', name);
  form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  return form;
}
