import { describe, expect, it } from 'vitest';
import * as validator from 'gltf-validator';
import { Color, LinearSRGBColorSpace } from 'three';
import { demoStoolGlb } from '../../scripts/start/demo-model.js';
import { demoProjectData } from '../../scripts/start/demo-data.js';

interface GltfJson {
  nodes: Array<{ name?: string; mesh?: number; children?: number[] }>;
  meshes: Array<{
    primitives: Array<{
      material?: number;
      extensions?: { KHR_materials_variants?: { mappings: Array<{ material: number; variants: number[] }> } };
    }>;
  }>;
  materials: Array<{ name?: string; pbrMetallicRoughness?: { baseColorFactor?: number[] } }>;
  animations: Array<{
    name?: string;
    channels: Array<{ sampler: number; target: { node: number; path: string } }>;
    samplers: Array<{ input: number }>;
  }>;
  accessors: Array<{ min?: number[]; max?: number[] }>;
  extensions?: { KHR_materials_variants?: { variants: Array<{ name: string }> } };
}

/** The GLB's JSON chunk: the file as the element's loader reads it, names exactly as written. */
function gltfJson(glb: Uint8Array): GltfJson {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + view.getUint32(12, true)))) as GltfJson;
}

/**
 * The generated demo stool (docs/scene-format.md, The demo stool): a valid GLB with every name the demo's effects use.
 */
describe('the demo stool model', () => {
  it('passes the Khronos validator without errors', async () => {
    const report = await validator.validateBytes(await demoStoolGlb(), { maxIssues: 0 });
    expect(report.issues.messages.filter((m) => m.severity === 0)).toEqual([]);
    expect(report.issues.numErrors).toBe(0);
  });

  it('has the parts, materials, variants and clip the demo project names', async () => {
    const json = gltfJson(await demoStoolGlb());
    const nodeNamed = (name: string) => json.nodes.findIndex((n) => n.name === name);
    const stool = json.nodes[nodeNamed('Stool')];
    expect(stool.children!.map((i) => json.nodes[i].name)).toEqual([
      'Seat',
      'Leg_1',
      'Leg_2',
      'Leg_3',
      'Leg_4',
      'Backrest',
      'Footrest',
    ]);
    const primitiveOf = (name: string) => json.meshes[json.nodes[nodeNamed(name)].mesh!].primitives[0];
    const materialName = (index: number | undefined) => json.materials[index!].name;
    expect(materialName(primitiveOf('Seat').material)).toBe('Oak');
    expect(materialName(primitiveOf('Backrest').material)).toBe('Oak');
    expect(materialName(primitiveOf('Leg_1').material)).toBe('Steel');
    // The four legs share one mesh, so one mapping switches all of them.
    expect(new Set(['Leg_1', 'Leg_2', 'Leg_3', 'Leg_4'].map((n) => json.nodes[nodeNamed(n)].mesh)).size).toBe(1);

    const variants = json.extensions!.KHR_materials_variants!.variants.map((v) => v.name);
    expect(variants).toEqual(['steel', 'brass']);
    const mappings = primitiveOf('Leg_1').extensions!.KHR_materials_variants!.mappings;
    const materialOfVariant = (name: string) =>
      materialName(mappings.find((m) => m.variants.includes(variants.indexOf(name)))?.material);
    expect(materialOfVariant('steel')).toBe('Steel');
    expect(materialOfVariant('brass')).toBe('Brass');

    expect(json.animations.map((a) => a.name)).toEqual(['Turn']);
    const [turn] = json.animations;
    expect(turn.channels.map((c) => c.target)).toEqual([{ node: nodeNamed('Stool'), path: 'rotation' }]);
    const times = json.accessors[turn.samplers[turn.channels[0].sampler].input];
    expect([times.min, times.max]).toEqual([[0], [2]]);
  });

  it("draws the seat in the colour of the demo project's Oak swatch", async () => {
    const json = gltfJson(await demoStoolGlb());
    const [r, g, b] = json.materials.find((m) => m.name === 'Oak')!.pbrMetallicRoughness!.baseColorFactor!;
    // glTF colours are linear; a swatch's colour is CSS (sRGB), as the element converts an effect's colour.
    const drawn = `#${new Color().setRGB(r, g, b, LinearSRGBColorSpace).getHexString()}`;
    const seat = demoProjectData(null).sceneData.optionBlocks.find((block) => block.id === 'seat')!;
    expect(seat.choices.find((choice) => choice.id === 'oak')).toMatchObject({ color: drawn });
  });
});
