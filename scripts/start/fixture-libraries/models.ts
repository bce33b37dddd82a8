import { crc32, deflateRawSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { Document, Format, NodeIO, type Material } from '@gltf-transform/core';
import sharp from 'sharp';

/**
 * The fixture libraries' model files, generated rather than shipped. The archive over 80 MB is
 * produced as a stream so it is never held in memory.
 */

/** A noise texture (noise, so that glTF-Transform's prune does not fold it into a colour). */
async function noisePng(size: number, seed = 1): Promise<Uint8Array> {
  const pixels = Buffer.alloc(size * size * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < pixels.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    pixels[i] = (x >>> 16) & 255;
  }
  return new Uint8Array(
    await sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
      .png()
      .toBuffer(),
  );
}

function box(doc: Document, material: Material, [sx, sy, sz]: number[], subdivisions = 1) {
  const buffer = doc.getRoot().listBuffers()[0];
  const position: number[] = [];
  const normal: number[] = [];
  const uv: number[] = [];
  const index: number[] = [];
  const faces: number[][][] = [
    [
      [1, 0, 0],
      [0, 0, -1],
      [0, 1, 0],
    ],
    [
      [-1, 0, 0],
      [0, 0, 1],
      [0, 1, 0],
    ],
    [
      [0, 1, 0],
      [1, 0, 0],
      [0, 0, -1],
    ],
    [
      [0, -1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ],
    [
      [0, 0, 1],
      [1, 0, 0],
      [0, 1, 0],
    ],
    [
      [0, 0, -1],
      [-1, 0, 0],
      [0, 1, 0],
    ],
  ];
  const n = subdivisions;
  for (const [nn, u, v] of faces) {
    const base = position.length / 3;
    for (let j = 0; j <= n; j++) {
      for (let i = 0; i <= n; i++) {
        const a = (2 * i) / n - 1;
        const b = (2 * j) / n - 1;
        position.push(
          ((nn[0] + a * u[0] + b * v[0]) * sx) / 2,
          ((nn[1] + a * u[1] + b * v[1]) * sy) / 2,
          ((nn[2] + a * u[2] + b * v[2]) * sz) / 2,
        );
        normal.push(...nn);
        uv.push(i / n, j / n);
      }
    }
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const p = base + j * (n + 1) + i;
        index.push(p, p + 1, p + n + 2, p, p + n + 2, p + n + 1);
      }
    }
  }
  const acc = (type: 'VEC2' | 'VEC3' | 'SCALAR', array: Float32Array | Uint32Array | Uint16Array) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  return doc
    .createPrimitive()
    .setAttribute('POSITION', acc('VEC3', new Float32Array(position)))
    .setAttribute('NORMAL', acc('VEC3', new Float32Array(normal)))
    .setAttribute('TEXCOORD_0', acc('VEC2', new Float32Array(uv)))
    .setIndices(acc('SCALAR', position.length / 3 > 65535 ? new Uint32Array(index) : new Uint16Array(index)))
    .setMaterial(material);
}

export interface ChairOptions {
  name?: string;
  /** Texture side in pixels (default 64). */
  textureSize?: number;
  /** Subdivisions of the seat, for a heavy mesh (default 1). */
  seatSubdivisions?: number;
  /** Textures in the model (default 1; each a different noise). */
  textures?: number;
}

/** A chair, 0.45 × 0.94 × 0.45 m, standing on the origin: a textured seat and back, four legs sharing one mesh. */
export async function chairDocument(options: ChairOptions = {}): Promise<Document> {
  const doc = new Document();
  doc.createBuffer('scene');
  const size = options.textureSize ?? 64;
  const textures = await Promise.all(Array.from({ length: options.textures ?? 1 }, (_, i) => noisePng(size, i + 1)));
  const woods = textures.map((png, i) =>
    doc
      .createMaterial(`Wood_${i + 1}`)
      .setBaseColorTexture(
        doc
          .createTexture(`wood_${i + 1}`)
          .setImage(png)
          .setMimeType('image/png')
          .setURI(`textures/wood_${i + 1}.png`),
      )
      .setRoughnessFactor(0.8)
      .setMetallicFactor(0),
  );
  const metal = doc
    .createMaterial('Metal')
    .setBaseColorFactor([0.3, 0.3, 0.32, 1])
    .setMetallicFactor(1)
    .setRoughnessFactor(0.4);
  const chair = doc.createNode(options.name ?? 'Chair');
  const seat = doc.createMesh('Seat');
  seat.addPrimitive(box(doc, woods[0], [0.45, 0.04, 0.45], options.seatSubdivisions ?? 1));
  chair.addChild(doc.createNode('Seat').setMesh(seat).setTranslation([0, 0.47, 0]));
  for (let i = 1; i < woods.length; i++)
    chair.addChild(
      doc
        .createNode(`Slat_${i}`)
        .setMesh(doc.createMesh(`Slat_${i}`).addPrimitive(box(doc, woods[i], [0.4, 0.03, 0.02])))
        .setTranslation([0, 0.6 + i * 0.001, -0.21]),
    );
  chair.addChild(
    doc
      .createNode('Back')
      .setMesh(doc.createMesh('Back').addPrimitive(box(doc, woods[0], [0.45, 0.45, 0.03])))
      .setTranslation([0, 0.715, -0.21]),
  );
  const leg = doc.createMesh('Leg').addPrimitive(box(doc, metal, [0.03, 0.45, 0.03]));
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

/** The document as a .gltf (named `basename`.gltf) with its .bin and textures: relative path → bytes. */
export async function gltfFiles(doc: Document, basename = 'scene'): Promise<Map<string, Uint8Array>> {
  const { json, resources } = await new NodeIO().writeJSON(doc, { format: Format.GLTF, basename } as never);
  const files = new Map<string, Uint8Array>([[`${basename}.gltf`, new TextEncoder().encode(JSON.stringify(json))]]);
  for (const [uri, bytes] of Object.entries(resources)) files.set(uri, bytes);
  return files;
}

export const glbOf = (doc: Document) => new NodeIO().writeBinary(doc);

interface ZipEntry {
  name: string;
  data: Uint8Array;
  /** Deflate (default true). */
  deflate?: boolean;
}

/** A zip archive (no dependency: STORE or DEFLATE entries, one central directory). */
function zip(entries: ZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const deflate = entry.deflate !== false;
    const body = deflate ? deflateRawSync(entry.data) : Buffer.from(entry.data);
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const centralSize = centrals.reduce((sum, b) => sum + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, ...centrals, end]));
}

/** Sketchfab's gltf archive layout: scene.gltf, scene.bin and textures/ at the top. */
export async function chairZip(options: ChairOptions = {}): Promise<Uint8Array> {
  const files = await gltfFiles(await chairDocument(options));
  return zip([...files].map(([name, data]) => ({ name, data, deflate: !name.endsWith('.png') })));
}

/** An archive whose entry climbs out of the folder it is unpacked in. */
export async function zipSlipArchive(): Promise<Uint8Array> {
  const files = await gltfFiles(await chairDocument());
  return zip([
    ...[...files].map(([name, data]) => ({ name, data })),
    { name: '../../evil.txt', data: new TextEncoder().encode('gotcha') },
  ]);
}

/** A small archive that expands to `megabytes` MB of zeros (a ratio far past 100). */
export function zipBombArchive(megabytes = 30): Uint8Array {
  return zip([
    { name: 'scene.gltf', data: new TextEncoder().encode('{"asset":{"version":"2.0"}}') },
    { name: 'scene.bin', data: new Uint8Array(megabytes * 1_000_000) },
  ]);
}

/** A gltf archive whose .gltf is not glTF. */
export function brokenArchive(): Uint8Array {
  return zip([
    {
      name: 'scene.gltf',
      data: new TextEncoder().encode(
        '{"asset":{"version":"2.0"},"buffers":[{"byteLength":64,"uri":"scene.bin"}],' +
          '"bufferViews":[{"buffer":0,"byteLength":4096}]}',
      ),
    },
    { name: 'scene.bin', data: new Uint8Array(64) },
  ]);
}

/**
 * `bytes` of archive-looking data produced as it is sent, a chunk at a time (never held in
 * memory): a local zip header then filler. Sent without Content-Length, as a chunked answer.
 */
export function streamedArchive(bytes: number, options: { chunkBytes?: number; delayMs?: number } = {}): Readable {
  const chunkBytes = options.chunkBytes ?? 256 * 1024;
  let sent = 0;
  const filler = Buffer.alloc(chunkBytes, 0x41);
  return new Readable({
    async read() {
      if (sent >= bytes) return this.push(null);
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      const size = Math.min(chunkBytes, bytes - sent);
      const chunk =
        sent === 0
          ? Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), filler.subarray(4, size)])
          : filler.subarray(0, size);
      sent += size;
      this.push(chunk);
    },
  });
}
