import { beforeAll, describe, expect, it } from 'vitest';
import { Document, NodeIO, type Accessor, type GLTF } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer';
import sharp from 'sharp';
import * as validator from 'gltf-validator';
import { makeDeliveryFile, type DeliveryOutcome } from '#core/domain/models/delivery-file.js';
import { glbOutline } from '#core/domain/models/model-outline.js';
import { outlineDifference } from '#core/domain/models/outline-difference.js';
import { gltfValidatorErrorCodes } from '#core/platform/gltf-validator-error-codes.js';
import { productModelGlb } from '../../helpers/product-model.js';
import { chairGlb, patchGlbJson } from '../../helpers/model-fixtures.js';

/**
 * The delivery file of docs/delivery-files.md, made from models built here: smaller, valid, and the same model to
 * anything that addresses it by name (outline, hierarchy, node transforms, variants, animations, unused materials).
 */
const options = { validatorErrorCodes: gltfValidatorErrorCodes() };
const io = () =>
  new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({ 'meshopt.decoder': MeshoptDecoder });
const jsonOf = async (glb: Uint8Array) => (await new NodeIO().binaryToJSON(glb)).json;

function ready(outcome: DeliveryOutcome) {
  if (outcome.kind !== 'ready') throw new Error(`expected a delivery file, got skipped: ${outcome.reason}`);
  return outcome;
}

let original: Uint8Array;
let delivery: Uint8Array;

beforeAll(async () => {
  // Textures over 2048 px, so that the resize shows.
  original = await productModelGlb({ textureSide: 2100, segments: 24 });
  delivery = ready(await makeDeliveryFile(original.slice(), options)).glb;
}, 60_000);

describe('a product model', () => {
  it('is smaller, and the Khronos validator finds no error in it', async () => {
    expect(delivery.byteLength).toBeLessThan(original.byteLength * 0.6);
    const report = await validator.validateBytes(new Uint8Array(delivery), { maxIssues: 100 });
    expect(report.issues.numErrors, JSON.stringify(report.issues.messages.slice(0, 3))).toBe(0);
  });

  it('declares meshopt, quantized geometry and WebP textures', async () => {
    const json = await jsonOf(delivery);
    expect(json.extensionsRequired).toEqual(
      expect.arrayContaining(['EXT_meshopt_compression', 'KHR_mesh_quantization', 'EXT_texture_webp']),
    );
  });

  it('has the same outline: names, hierarchy, materials (an unused one too), variants, animations', async () => {
    const before = await glbOutline(original);
    const after = await glbOutline(delivery);
    expect(outlineDifference(before, after)).toBeNull();
    expect(after.materials).toContain('Spare');
    expect(after.variants).toEqual(['Linen', 'Velvet']);
    expect(after.animations).toEqual([{ name: 'Recline', duration: expect.closeTo(2, 5) }]);
    // Welding merged the vertices each quad had of its own.
    expect(after.vertices).toBeLessThan(before.vertices / 2);
  });

  it('keeps every node transform as the file wrote it (scenes set them by name)', async () => {
    const transforms = (json: GLTF.IGLTF) =>
      (json.nodes ?? []).map(({ name, translation, rotation, scale, matrix }) => ({
        name,
        translation,
        rotation,
        scale,
        matrix,
      }));
    expect(transforms(await jsonOf(delivery))).toEqual(transforms(await jsonOf(original)));
  });

  it('scales textures down to 2048 px as WebP, and draws the same geometry', async () => {
    const doc = await io().readBinary(delivery);
    const textures = doc.getRoot().listTextures();
    expect(textures).toHaveLength(4);
    for (const texture of textures) {
      expect(texture.getMimeType()).toBe('image/webp');
      const { width, height, format } = await sharp(texture.getImage()!).metadata();
      expect([width, height, format]).toEqual([2048, 2048, 'webp']);
    }
    const originalDoc = await io().readBinary(original);
    const cushion = (d: Document) =>
      d
        .getRoot()
        .listMeshes()
        .find((mesh) => mesh.getName() === 'Cushion')!
        .listPrimitives()[0];
    const position = cushion(doc).getAttribute('POSITION')!;
    expect(position.getNormalized()).toBe(true);
    expect(position.getComponentType()).toBe(5122);
    // Every vertex of the original is within a 16-bit step of one in the delivery file.
    const kept = new Set<string>();
    const rounded = (accessor: Accessor, i: number) =>
      accessor
        .getElement(i, [0, 0, 0])
        .map((v) => v.toFixed(3))
        .join();
    for (let i = 0; i < position.getCount(); i++) kept.add(rounded(position, i));
    const source = cushion(originalDoc).getAttribute('POSITION')!;
    for (let i = 0; i < source.getCount(); i += 7) expect(kept).toContain(rounded(source, i));
  });
});

describe('what is served as uploaded', () => {
  it('a model that would not get smaller is skipped, saying so', async () => {
    // One triangle far from its node (float positions kept) and no texture: meshopt's headers outweigh it.
    const doc = new Document();
    const buffer = doc.createBuffer();
    const positions = doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 5, 0, 0, 0, 5, 0]))
      .setBuffer(buffer);
    const mesh = doc.createMesh('Tri').addPrimitive(doc.createPrimitive().setAttribute('POSITION', positions));
    doc.createScene('Scene').addChild(doc.createNode('Tri').setMesh(mesh));
    const glb = await new NodeIO().writeBinary(doc);
    const outcome = await makeDeliveryFile(glb, options);
    expect(outcome).toMatchObject({ kind: 'skipped', reason: 'it is not smaller than the original' });
  });

  it('a Draco-compressed model is skipped: it is served as it came', async () => {
    const glb = patchGlbJson(await chairGlb(), (json) => {
      json.extensionsUsed = ['KHR_draco_mesh_compression'];
    });
    expect(await makeDeliveryFile(glb, options)).toMatchObject({
      kind: 'skipped',
      reason: 'it uses KHR_draco_mesh_compression, served as uploaded',
    });
  });

  it('keeps float positions where 16-bit steps would show: a part modelled 1,000 times too small', async () => {
    const doc = await new NodeIO().readBinary(await chairGlb());
    const seat = doc
      .getRoot()
      .listNodes()
      .find((node) => node.getName() === 'Seat')!;
    const position = seat.getMesh()!.listPrimitives()[0].getAttribute('POSITION')!;
    position.setArray((position.getArray() as Float32Array).map((v) => v / 1000));
    seat.setScale([1000, 1000, 1000]);
    const outcome = ready(await makeDeliveryFile(await new NodeIO().writeBinary(doc), options));
    const json = await jsonOf(outcome.glb);
    const positionType = (name: string) => {
      const mesh = json.meshes!.find((each) => each.name === name)!;
      return json.accessors![mesh.primitives[0].attributes.POSITION].componentType;
    };
    expect(positionType('Seat')).toBe(5126);
    expect(positionType('Leg')).toBe(5122);
  });
});

describe('outlineDifference', () => {
  it('names what changed, and lets bounds move by at most 0.1% of the diagonal', async () => {
    const outline = await glbOutline(await chairGlb());
    const moved = (by: number) => ({
      ...outline,
      bounds: { ...outline.bounds, max: { ...outline.bounds.max, x: outline.bounds.max.x + by } },
    });
    const diagonal = Math.hypot(0.45, 0.49, 0.45);
    expect(outlineDifference(outline, moved(diagonal * 0.0009))).toBeNull();
    expect(outlineDifference(outline, moved(diagonal * 0.0011))).toBe('bounds');
    expect(outlineDifference(outline, { ...outline, vertices: 1 })).toBeNull();
    expect(outlineDifference(outline, { ...outline, materials: ['Wood'] })).toBe('materials');
    const renamed = outline.nodes.map((node, i) => (i === 1 ? { ...node, name: 'Seat.001' } : node));
    expect(outlineDifference(outline, { ...outline, nodes: renamed })).toBe('nodes or hierarchy');
    expect(outlineDifference(outline, { ...outline, triangles: outline.triangles - 1 })).toBe('triangle count');
  });
});
