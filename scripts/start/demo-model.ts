import { Document, NodeIO, type Material } from '@gltf-transform/core';

/**
 * The demo's 3D model, generated rather than shipped: a small stool (a seat and four legs,
 * two materials), about 0.4 × 0.45 × 0.4 m, as one GLB.
 */
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

export async function demoStoolGlb(): Promise<Uint8Array> {
  const doc = new Document();
  doc.createBuffer();
  const wood = doc
    .createMaterial('Oak')
    .setBaseColorFactor([0.62, 0.45, 0.28, 1])
    .setRoughnessFactor(0.7)
    .setMetallicFactor(0);
  const metal = doc
    .createMaterial('Steel')
    .setBaseColorFactor([0.55, 0.56, 0.6, 1])
    .setRoughnessFactor(0.35)
    .setMetallicFactor(1);
  const stool = doc.createNode('Stool');
  stool.addChild(
    doc
      .createNode('Seat')
      .setMesh(doc.createMesh('Seat').addPrimitive(boxPrimitive(doc, wood, [0.4, 0.04, 0.4])))
      .setTranslation([0, 0.43, 0]),
  );
  const leg = doc.createMesh('Leg').addPrimitive(boxPrimitive(doc, metal, [0.03, 0.41, 0.03]));
  [
    [-0.17, -0.17],
    [0.17, -0.17],
    [-0.17, 0.17],
    [0.17, 0.17],
  ].forEach(([x, z], i) =>
    stool.addChild(
      doc
        .createNode(`Leg_${i + 1}`)
        .setMesh(leg)
        .setTranslation([x, 0.205, z]),
    ),
  );
  doc.getRoot().setDefaultScene(doc.createScene('Scene').addChild(stool));
  doc.getRoot().getAsset().copyright = 'config-share demo model, CC0';
  return new NodeIO().writeBinary(doc);
}
