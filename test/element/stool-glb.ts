import { Document, WebIO, type Material, type Node } from '@gltf-transform/core';
import { KHRMaterialsVariants } from '@gltf-transform/extensions';
import { boxGeometry } from './box-geometry.mjs';

/**
 * A stool built in the browser (no binary fixture in the repository), each part a colour of its own so tests find it
 * in the pixels: Seat green, Leg_1–Leg_4 blue (variant `brass` red), Backrest yellow, Footrest cyan (a grained PNG
 * texture). Its boxes are written as exporters write them (box-geometry.mjs), so its delivery file is smaller.
 */

/** Quads along each edge of a box's faces. */
const BOX_SEGMENTS = 4;
const GRAIN_SIDE = 64;

/** A PNG of `colour` (sRGB bytes) with a fixed grain of ±10 per channel, as a photographed paint has. */
async function grainPng(colour: [number, number, number]): Promise<Uint8Array> {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = GRAIN_SIDE;
  const context = canvas.getContext('2d')!;
  const image = context.createImageData(GRAIN_SIDE, GRAIN_SIDE);
  let seed = 7;
  for (let i = 0; i < image.data.length; i += 4) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const grain = ((seed >>> 16) % 21) - 10;
    image.data.set([...colour.map((channel) => channel + grain), 255], i);
  }
  context.putImageData(image, 0, 0);
  const png = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  return new Uint8Array(await png!.arrayBuffer());
}

export async function stoolGlb(): Promise<ArrayBuffer> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const material = (name: string, color: [number, number, number]) =>
    doc
      .createMaterial(name)
      .setBaseColorFactor([...color, 1])
      .setRoughnessFactor(0.9)
      .setMetallicFactor(0);
  const oak = material('Oak', [0.02, 0.5, 0.02]);
  const steel = material('Steel', [0.02, 0.02, 0.6]);
  const brass = material('Brass', [0.6, 0.02, 0.02]);
  const fabric = material('Fabric', [0.6, 0.5, 0.01]);
  // The linear (0.01, 0.45, 0.5) of the other parts' kind, as an sRGB texture.
  const grain = doc
    .createTexture('paint_grain')
    .setImage(await grainPng([25, 178, 188]))
    .setMimeType('image/png');
  const paint = material('Paint', [1, 1, 1]).setBaseColorTexture(grain);

  const box = (name: string, surface: Material, size: [number, number, number]) => {
    const { position, normal, uv, indices } = boxGeometry(size, BOX_SEGMENTS);
    const accessor = (type: 'VEC2' | 'VEC3' | 'SCALAR', array: Float32Array | Uint16Array) =>
      doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
    return doc
      .createMesh(name)
      .addPrimitive(
        doc
          .createPrimitive()
          .setAttribute('POSITION', accessor('VEC3', position))
          .setAttribute('NORMAL', accessor('VEC3', normal))
          .setAttribute('TEXCOORD_0', accessor('VEC2', uv))
          .setIndices(accessor('SCALAR', indices))
          .setMaterial(surface),
      );
  };

  const stool = doc.createNode('Stool');
  const part = (name: string, mesh: ReturnType<typeof box>, at: [number, number, number]): Node => {
    const node = doc.createNode(name).setMesh(mesh).setTranslation(at);
    stool.addChild(node);
    return node;
  };
  part('Seat', box('Seat', oak, [0.4, 0.04, 0.4]), [0, 0.43, 0]);
  const leg = box('Leg', steel, [0.05, 0.41, 0.05]);
  [
    [-0.17, -0.17],
    [0.17, -0.17],
    [-0.17, 0.17],
    [0.17, 0.17],
  ].forEach(([x, z], i) => part(`Leg_${i + 1}`, leg, [x, 0.205, z]));
  const backrest = part('Backrest', box('Backrest', fabric, [0.3, 0.3, 0.04]), [0, 0.65, -0.18]);
  // Deeper than the legs it crosses: no coplanar faces, whose z-fighting any change of float rounding would flip.
  part('Footrest', box('Footrest', paint, [0.4, 0.05, 0.06]), [0, 0.15, 0.17]);

  const variants = doc.createExtension(KHRMaterialsVariants);
  const mapping = (name: string, surface: Material) =>
    variants.createMapping().addVariant(variants.createVariant(name)).setMaterial(surface);
  leg
    .listPrimitives()[0]
    .setExtension(
      'KHR_materials_variants',
      variants.createMappingList().addMapping(mapping('steel', steel)).addMapping(mapping('brass', brass)),
    );

  const times = doc
    .createAccessor()
    .setType('SCALAR')
    .setArray(new Float32Array([0, 0.5]))
    .setBuffer(buffer);
  const places = doc
    .createAccessor()
    .setType('VEC3')
    .setArray(new Float32Array([0, 0.65, -0.18, 0.3, 0.65, -0.18]))
    .setBuffer(buffer);
  const sampler = doc.createAnimationSampler().setInput(times).setOutput(places).setInterpolation('LINEAR');
  doc
    .createAnimation('Slide')
    .addSampler(sampler)
    .addChannel(doc.createAnimationChannel().setTargetNode(backrest).setTargetPath('translation').setSampler(sampler));

  doc.getRoot().setDefaultScene(doc.createScene('Scene').addChild(stool));
  const glb = await new WebIO().registerExtensions([KHRMaterialsVariants]).writeBinary(doc);
  return glb.slice().buffer;
}
