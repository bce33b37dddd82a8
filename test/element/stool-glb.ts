import { Document, WebIO, type Material, type Node } from '@gltf-transform/core';
import { KHRMaterialsVariants } from '@gltf-transform/extensions';

/**
 * A stool built in the browser (no binary fixture in the repository), each part a colour of its own so tests find it
 * in the pixels: Seat green, Leg_1–Leg_4 blue (variant `brass` red), Backrest yellow, Footrest cyan.
 */
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
  const paint = material('Paint', [0.01, 0.45, 0.5]);

  const box = (name: string, surface: Material, [sx, sy, sz]: number[]) => {
    const corners: number[] = [];
    for (const x of [-sx / 2, sx / 2])
      for (const y of [-sy / 2, sy / 2]) for (const z of [-sz / 2, sz / 2]) corners.push(x, y, z);
    // Corner index = x·4 + y·2 + z; two triangles per face, wound outwards.
    const faces = [
      0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3,
    ];
    const accessor = (type: 'VEC3' | 'SCALAR', array: Float32Array | Uint16Array) =>
      doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
    return doc.createMesh(name).addPrimitive(
      doc
        .createPrimitive()
        .setAttribute('POSITION', accessor('VEC3', new Float32Array(corners)))
        .setIndices(accessor('SCALAR', new Uint16Array(faces)))
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
  part('Footrest', box('Footrest', paint, [0.4, 0.05, 0.05]), [0, 0.15, 0.17]);

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
