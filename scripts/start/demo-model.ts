import { Document, NodeIO, type Material, type Node } from '@gltf-transform/core';
import { KHRMaterialsVariants } from '@gltf-transform/extensions';

/** An axis-aligned box of size sx × sy × sz centred on the origin, with flat normals. */
function boxPrimitive(doc: Document, material: Material, [sx, sy, sz]: [number, number, number]) {
  const buffer = doc.getRoot().listBuffers()[0];
  const position: number[] = [];
  const normal: number[] = [];
  const index: number[] = [];
  // Each face: its normal n and two in-plane axes u, v (counter-clockwise seen from outside).
  const faces: Array<[number[], number[], number[]]> = [
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
  faces.forEach(([n, u, v], f) => {
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
    }
    index.push(f * 4, f * 4 + 1, f * 4 + 2, f * 4, f * 4 + 2, f * 4 + 3);
  });
  const accessor = (type: 'VEC3' | 'SCALAR', array: Float32Array | Uint16Array) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  return doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', new Float32Array(position)))
    .setAttribute('NORMAL', accessor('VEC3', new Float32Array(normal)))
    .setIndices(accessor('SCALAR', new Uint16Array(index)))
    .setMaterial(material);
}

/** A quarter turn about Y per key, so linear (slerp) interpolation never takes the short way back. */
function turnAnimation(doc: Document, target: Node, seconds: number) {
  const buffer = doc.getRoot().listBuffers()[0];
  const keys = [0, 1, 2, 3, 4];
  const times = new Float32Array(keys.map((k) => (k * seconds) / 4));
  const rotations = new Float32Array(
    keys.flatMap((k) => [0, Math.sin((k * Math.PI) / 4), 0, Math.cos((k * Math.PI) / 4)]),
  );
  const sampler = doc
    .createAnimationSampler()
    .setInput(doc.createAccessor().setType('SCALAR').setArray(times).setBuffer(buffer))
    .setOutput(doc.createAccessor().setType('VEC4').setArray(rotations).setBuffer(buffer))
    .setInterpolation('LINEAR');
  const channel = doc.createAnimationChannel().setTargetNode(target).setTargetPath('rotation').setSampler(sampler);
  return doc.createAnimation('Turn').addSampler(sampler).addChannel(channel);
}

/**
 * The demo's stool GLB, generated rather than shipped (docs/scene-format.md, The demo stool), with a part, material,
 * variant and clip for every effect type the configurator shows.
 */
export async function demoStoolGlb(): Promise<Uint8Array> {
  const doc = new Document();
  doc.createBuffer();
  const oak = doc
    .createMaterial('Oak')
    .setBaseColorFactor([0.62, 0.45, 0.28, 1])
    .setRoughnessFactor(0.7)
    .setMetallicFactor(0);
  const steel = doc
    .createMaterial('Steel')
    .setBaseColorFactor([0.55, 0.56, 0.6, 1])
    .setRoughnessFactor(0.35)
    .setMetallicFactor(1);
  const brass = doc
    .createMaterial('Brass')
    .setBaseColorFactor([0.78, 0.57, 0.22, 1])
    .setRoughnessFactor(0.3)
    .setMetallicFactor(1);

  const stool = doc.createNode('Stool');
  const part = (name: string, mesh: ReturnType<Document['createMesh']>, at: [number, number, number]) => {
    const node = doc.createNode(name).setMesh(mesh).setTranslation(at);
    stool.addChild(node);
    return node;
  };
  part('Seat', doc.createMesh('Seat').addPrimitive(boxPrimitive(doc, oak, [0.4, 0.04, 0.4])), [0, 0.43, 0]);

  // One leg mesh shared by four nodes: the variants map its one primitive, so all four switch together.
  const legPrimitive = boxPrimitive(doc, steel, [0.03, 0.41, 0.03]);
  const variants = doc.createExtension(KHRMaterialsVariants);
  const mappings = variants.createMappingList();
  for (const [name, material] of [
    ['steel', steel],
    ['brass', brass],
  ] as const)
    mappings.addMapping(variants.createMapping().setMaterial(material).addVariant(variants.createVariant(name)));
  legPrimitive.setExtension('KHR_materials_variants', mappings);
  const leg = doc.createMesh('Leg').addPrimitive(legPrimitive);
  [
    [-0.17, -0.17],
    [0.17, -0.17],
    [-0.17, 0.17],
    [0.17, 0.17],
  ].forEach(([x, z], i) => part(`Leg_${i + 1}`, leg, [x, 0.205, z]));

  part(
    'Backrest',
    doc.createMesh('Backrest').addPrimitive(boxPrimitive(doc, oak, [0.4, 0.36, 0.03])),
    [0, 0.65, -0.185],
  );
  part(
    'Footrest',
    doc.createMesh('Footrest').addPrimitive(boxPrimitive(doc, steel, [0.34, 0.02, 0.02])),
    [0, 0.15, 0.17],
  );

  turnAnimation(doc, stool, 2);
  doc.getRoot().setDefaultScene(doc.createScene('Scene').addChild(stool));
  doc.getRoot().getAsset().copyright = 'config-share demo model, CC0';
  return new NodeIO().registerExtensions([KHRMaterialsVariants]).writeBinary(doc);
}
