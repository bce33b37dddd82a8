import { Document, NodeIO, type Material, type Node } from '@gltf-transform/core';
import { KHRMaterialsVariants } from '@gltf-transform/extensions';
import sharp from 'sharp';

/**
 * A product-sized model as exporters write them, made here so no sample file is shipped: an armchair with a nested
 * hierarchy (a mesh node holding mesh children), four legs sharing one mesh, an animated footrest baked at 30 fps,
 * two material variants, a material no mesh uses, vertices written once per quad (nothing welded) and four
 * textures of `textureSide` px as PNG. With the defaults the GLB is over 20 MB.
 */
export interface ProductModelOptions {
  /** Side of the four fabric textures, in px. Default 4096. */
  textureSide: number;
  /** Quads along each side of the cushion and backrest surfaces. Default 300. */
  segments: number;
}

const DEFAULTS: ProductModelOptions = { textureSide: 4096, segments: 300 };

/** A deterministic pseudo-random sequence (mulberry32), so the same options give the same bytes. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A woven-fabric texture: a weave of sines and grain, the kind of detail a scanned fabric has. */
async function fabricPng(side: number, seed: number, channel: (weave: number, grain: number) => number[]) {
  const next = random(seed);
  const pixels = Buffer.alloc(side * side * 3);
  // Grain per 4 × 4 px cell: fine detail that PNG still packs to a few megabytes at 4096 px.
  const cells = side >> 2;
  const grains = Uint8Array.from({ length: cells * cells }, () => (next() < 0.2 ? 1 : 0));
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const weave = Math.round(Math.sin(x * 0.35) * Math.sin(y * 0.35) * 8) / 8;
      const grain = grains[(y >> 2) * cells + (x >> 2)];
      const [r, g, b] = channel(weave, grain);
      const at = (y * side + x) * 3;
      pixels[at] = r;
      pixels[at + 1] = g;
      pixels[at + 2] = b;
    }
  return new Uint8Array(
    await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
      .png()
      .toBuffer(),
  );
}

/** A smooth surface of `segments`² quads, each quad with its own four vertices as an unwelded export has them. */
function surface(
  doc: Document,
  name: string,
  material: Material,
  segments: number,
  size: [number, number],
  bulge: number,
) {
  const buffer = doc.getRoot().listBuffers()[0];
  const quads = segments * segments;
  const position = new Float32Array(quads * 12);
  const normal = new Float32Array(quads * 12);
  const uv = new Float32Array(quads * 8);
  const index = new Uint32Array(quads * 6);
  const point = (u: number, v: number) => {
    const x = (u - 0.5) * size[0];
    const z = (v - 0.5) * size[1];
    const y = bulge * Math.sin(Math.PI * u) * Math.sin(Math.PI * v);
    const dx = (bulge * Math.PI * Math.cos(Math.PI * u) * Math.sin(Math.PI * v)) / size[0];
    const dz = (bulge * Math.PI * Math.sin(Math.PI * u) * Math.cos(Math.PI * v)) / size[1];
    const length = Math.hypot(dx, 1, dz);
    return { p: [x, y, z], n: [-dx / length, 1 / length, -dz / length] };
  };
  let quad = 0;
  for (let i = 0; i < segments; i++)
    for (let j = 0; j < segments; j++, quad++) {
      const corners = [
        [i, j],
        [i + 1, j],
        [i + 1, j + 1],
        [i, j + 1],
      ];
      corners.forEach(([a, b], k) => {
        const { p, n } = point(a / segments, b / segments);
        position.set(p, (quad * 4 + k) * 3);
        normal.set(n, (quad * 4 + k) * 3);
        uv.set([a / segments, b / segments], (quad * 4 + k) * 2);
      });
      const first = quad * 4;
      index.set([first, first + 3, first + 2, first, first + 2, first + 1], quad * 6);
    }
  const accessor = (type: 'VEC3' | 'VEC2' | 'SCALAR', array: Float32Array | Uint32Array) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  return doc
    .createMesh(name)
    .addPrimitive(
      doc
        .createPrimitive()
        .setAttribute('POSITION', accessor('VEC3', position))
        .setAttribute('NORMAL', accessor('VEC3', normal))
        .setAttribute('TEXCOORD_0', accessor('VEC2', uv))
        .setIndices(accessor('SCALAR', index))
        .setMaterial(material),
    );
}

/** The armchair as a glTF-Transform document (see above). */
export async function productModelDocument(options: Partial<ProductModelOptions> = {}): Promise<Document> {
  const { textureSide, segments } = { ...DEFAULTS, ...options };
  const doc = new Document();
  doc.createBuffer();
  const texture = async (name: string, seed: number, channel: (weave: number, grain: number) => number[]) =>
    doc
      .createTexture(name)
      .setImage(await fabricPng(textureSide, seed, channel))
      .setMimeType('image/png');
  const [base, normalMap, roughness, occlusion] = await Promise.all([
    texture('fabric_base', 1, (w, g) => [150 + w * 40 + g * 6, 110 + w * 30 + g * 5, 80 + w * 20 + g * 4]),
    texture('fabric_normal', 2, (w, g) => [128 + w * 50 + g * 3, 128 - w * 50 + g * 3, 255]),
    texture('fabric_roughness', 3, (w, g) => [255, 170 + w * 40 + g * 8, 0]),
    texture('fabric_occlusion', 4, (w, g) => [200 + w * 40 + g * 5, 200 + w * 40 + g * 5, 200 + w * 40 + g * 5]),
  ]);
  const fabric = doc
    .createMaterial('Fabric')
    .setBaseColorTexture(base)
    .setNormalTexture(normalMap)
    .setMetallicRoughnessTexture(roughness)
    .setOcclusionTexture(occlusion)
    .setMetallicFactor(0);
  const velvet = doc.createMaterial('Velvet').setBaseColorFactor([0.35, 0.08, 0.12, 1]).setRoughnessFactor(0.9);
  const metal = doc.createMaterial('Brass').setBaseColorFactor([0.8, 0.6, 0.3, 1]).setMetallicFactor(1);
  doc.createMaterial('Spare').setBaseColorFactor([0.1, 0.4, 0.2, 1]);

  const cushion = surface(doc, 'Cushion', fabric, segments, [0.7, 0.7], 0.06);
  const backrest = surface(doc, 'Backrest', fabric, segments, [0.7, 0.6], 0.05);
  const frame = surface(doc, 'Frame', fabric, Math.max(2, segments >> 2), [0.8, 0.8], 0.02);
  const leg = surface(doc, 'Leg', metal, Math.max(2, segments >> 4), [0.04, 0.04], 0.3);
  const footrest = surface(doc, 'Footrest', fabric, Math.max(2, segments >> 2), [0.6, 0.3], 0.04);

  const variants = doc.createExtension(KHRMaterialsVariants);
  const linen = variants.createVariant('Linen');
  const velvetVariant = variants.createVariant('Velvet');
  for (const mesh of [cushion, backrest])
    mesh
      .listPrimitives()[0]
      .setExtension(
        'KHR_materials_variants',
        variants
          .createMappingList()
          .addMapping(variants.createMapping().setMaterial(fabric).addVariant(linen))
          .addMapping(variants.createMapping().setMaterial(velvet).addVariant(velvetVariant)),
      );

  const node = (name: string, translation: [number, number, number], mesh: typeof cushion | null = null): Node =>
    doc.createNode(name).setTranslation(translation).setMesh(mesh);
  const armchair = node('Armchair', [0, 0, 0]);
  const frameNode = node('Frame', [0, 0.4, 0], frame);
  frameNode.addChild(node('Cushion', [0, 0.03, 0.02], cushion));
  frameNode.addChild(node('Backrest', [0, 0.35, -0.38], backrest).setRotation([Math.SQRT1_2, 0, 0, Math.SQRT1_2]));
  const legs = node('Legs', [0, 0.2, 0]);
  [
    [-0.35, -0.35],
    [0.35, -0.35],
    [-0.35, 0.35],
    [0.35, 0.35],
  ].forEach(([x, z], i) => legs.addChild(node(`Leg_${i + 1}`, [x, 0, z], leg).setScale([1, 10, 1])));
  const recliner = node('Recliner', [0, 0.3, 0.45], footrest);
  armchair.addChild(frameNode).addChild(legs).addChild(recliner);
  doc.createScene('Scene').addChild(armchair);
  doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]);

  // Baked at 30 fps as exporters do: most keys repeat, which resampling removes.
  const frames = 61;
  const times = new Float32Array(frames).map((_, i) => i / 30);
  const rotations = new Float32Array(frames * 4);
  for (let i = 0; i < frames; i++) {
    const angle = (Math.min(i, 30) / 30) * (Math.PI / 6);
    rotations.set([Math.sin(angle / 2), 0, 0, Math.cos(angle / 2)], i * 4);
  }
  const buffer = doc.getRoot().listBuffers()[0];
  const sampler = doc
    .createAnimationSampler()
    .setInput(doc.createAccessor().setType('SCALAR').setArray(times).setBuffer(buffer))
    .setOutput(doc.createAccessor().setType('VEC4').setArray(rotations).setBuffer(buffer))
    .setInterpolation('LINEAR');
  doc
    .createAnimation('Recline')
    .addSampler(sampler)
    .addChannel(doc.createAnimationChannel().setTargetNode(recliner).setTargetPath('rotation').setSampler(sampler));
  return doc;
}

/** The armchair as one GLB. */
export async function productModelGlb(options: Partial<ProductModelOptions> = {}): Promise<Uint8Array> {
  return new NodeIO().registerExtensions([KHRMaterialsVariants]).writeBinary(await productModelDocument(options));
}
