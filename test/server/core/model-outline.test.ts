import { describe, expect, it } from 'vitest';
import { Document, NodeIO } from '@gltf-transform/core';
import { demoStoolGlb } from '../../../scripts/start/demo-model.js';
import { glbOutline, modelOutline } from '#core/domain/models/model-outline.js';

/** A model's outline (docs/api.md, "Model outlines and names checked"), read from the file's JSON. */

/** One triangle with its POSITION box from `min` to `max`, as glTF JSON (no buffers: the outline never reads them). */
const triangleMesh = (min: number[], max: number[]) => ({
  primitives: [{ attributes: { POSITION: 0 }, material: 0 }],
  _position: { count: 3, type: 'VEC3', componentType: 5126, min, max },
});

describe('the outline of a model', () => {
  it("lists the demo stool's parts, materials, variants and clip, its bounds and its counts", async () => {
    const outline = await glbOutline(await demoStoolGlb());
    const names = ['Stool', 'Seat', 'Leg_1', 'Leg_2', 'Leg_3', 'Leg_4', 'Backrest', 'Footrest'];
    expect(outline.nodes).toEqual(
      names.map((name, i) =>
        i === 0
          ? { name, parent: null, mesh: false, children: [1, 2, 3, 4, 5, 6, 7] }
          : { name, parent: 0, mesh: true, children: [] },
      ),
    );
    expect(outline.materials).toEqual(['Oak', 'Steel', 'Brass']);
    expect(outline.variants).toEqual(['steel', 'brass']);
    expect(outline.animations).toEqual([{ name: 'Turn', duration: 2 }]);
    // 7 boxes of 12 triangles and 24 vertices; the legs stand on y = 0, the backrest tops out at 0.83 m.
    expect(outline).toMatchObject({ triangles: 84, vertices: 168 });
    expect(outline.bounds.min.y).toBeCloseTo(0, 6);
    expect(outline.bounds.max.y).toBeCloseTo(0.83, 6);
    expect(outline.bounds.min.x).toBeCloseTo(-0.2, 6);
    expect(outline.bounds.max.z).toBeCloseTo(0.2, 6);
    expect(outline.truncated).toBeUndefined();
  });

  it('gives null for an unnamed node, material or clip, keeps names exactly as written, roots with parent null', () => {
    const outline = modelOutline({
      asset: { version: '2.0' },
      scene: 1,
      scenes: [{ nodes: [2] }, { nodes: [0, 3] }],
      nodes: [{ children: [1] }, { name: ' Leg.001 ' }, { name: 'Elsewhere' }, { name: '' }],
      materials: [{}, { name: 'Oak' }],
      animations: [{ channels: [], samplers: [] }],
    });
    expect(outline.nodes).toEqual([
      { name: null, parent: null, mesh: false, children: [1] },
      { name: ' Leg.001 ', parent: 0, mesh: false, children: [] },
      { name: '', parent: null, mesh: false, children: [] },
    ]);
    expect(outline.materials).toEqual([null, 'Oak']);
    expect(outline.animations).toEqual([{ name: null, duration: 0 }]);
    expect(outline.bounds).toEqual({ min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } });
    expect(outline).toMatchObject({ triangles: 0, vertices: 0 });
  });

  it("applies the file's transforms to the bounds: the parent's, then the node's own", async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const position = doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 2, 0]))
      .setBuffer(buffer);
    const mesh = doc.createMesh('Tri').addPrimitive(doc.createPrimitive().setAttribute('POSITION', position));
    // A quarter turn about Z sends +x to +y and +y to -x; then scaled by 3, then moved by the parent.
    const part = doc
      .createNode('Part')
      .setMesh(mesh)
      .setRotation([0, 0, Math.SQRT1_2, Math.SQRT1_2])
      .setScale([3, 3, 3]);
    const holder = doc.createNode('Holder').setTranslation([10, 0, 5]).addChild(part);
    doc.getRoot().setDefaultScene(doc.createScene().addChild(holder));
    const outline = await glbOutline(await new NodeIO().writeBinary(doc));
    expect(outline.bounds.min.x).toBeCloseTo(10 - 6, 5);
    expect(outline.bounds.max.x).toBeCloseTo(10, 5);
    expect(outline.bounds.min.y).toBeCloseTo(0, 5);
    expect(outline.bounds.max.y).toBeCloseTo(3, 5);
    expect(outline.bounds.min.z).toBeCloseTo(5, 5);
    expect(outline.bounds.max.z).toBeCloseTo(5, 5);
    expect(outline).toMatchObject({ triangles: 1, vertices: 3 });
  });

  it('keeps the first 10,000 nodes and 2,000 materials and says it is truncated; bounds count every node', () => {
    const mesh = triangleMesh([0, 0, 0], [1, 1, 1]);
    const count = 10_050;
    const outline = modelOutline({
      asset: { version: '2.0' },
      scenes: [{ nodes: [0] }],
      nodes: [
        { name: 'Root', children: Array.from({ length: count }, (_, i) => i + 1) },
        ...Array.from({ length: count }, (_, i) => ({ name: `Part_${i}`, mesh: 0, translation: [i, 0, 0] })),
      ],
      meshes: [{ primitives: mesh.primitives }],
      accessors: [mesh._position],
      materials: Array.from({ length: 2_001 }, (_, i) => ({ name: `M${i}` })),
    });
    expect(outline.truncated).toBe(true);
    expect(outline.nodes).toHaveLength(10_000);
    expect(outline.nodes[0].children).toHaveLength(9_999);
    expect(outline.nodes.at(-1)).toEqual({ name: 'Part_9998', parent: 0, mesh: true, children: [] });
    expect(outline.materials).toHaveLength(2_000);
    // The parts past the cut still count: the last one stands at x = 10,049.
    expect(outline.bounds.max.x).toBe(count);
    expect(outline.triangles).toBe(count);
  });

  it('reads normalized (quantized) positions as numbers and draws nothing from a mesh without POSITION', () => {
    const outline = modelOutline({
      asset: { version: '2.0' },
      scenes: [{ nodes: [0, 1] }],
      nodes: [
        { mesh: 0, scale: [2, 2, 2] },
        { mesh: 1, translation: [100, 100, 100] },
      ],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }, { primitives: [{ attributes: {} }] }],
      accessors: [
        { count: 4, type: 'VEC3', componentType: 5122, normalized: true, min: [-32767, 0, 0], max: [32767, 16384, 0] },
        { count: 6, type: 'SCALAR', componentType: 5123 },
      ],
    });
    expect(outline.bounds.min).toEqual({ x: -2, y: 0, z: 0 });
    expect(outline.bounds.max.x).toBe(2);
    expect(outline.bounds.max.y).toBeCloseTo(1, 3);
    expect(outline).toMatchObject({ triangles: 2, vertices: 4 });
  });
});
