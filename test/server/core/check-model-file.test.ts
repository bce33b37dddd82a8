import { describe, expect, it } from 'vitest';
import { NodeIO } from '@gltf-transform/core';
import { zipSync } from 'fflate';
import {
  checkModelFile as checkWith,
  convertModel,
  detectFormat,
  type CheckModelOptions,
} from '#core/domain/models/check-model-file.js';
import { ModelFileError } from '#core/domain/models/model-file-error.js';
import { gltfValidatorErrorCodes } from '#core/platform/gltf-validator-error-codes.js';
import * as fixtures from '../../helpers/model-fixtures.js';

/** The checks as the pool task runs them, with the validator's error codes. */
const checkModelFile = (bytes: Uint8Array, fileName: string, options: Partial<CheckModelOptions> = {}) =>
  checkWith(bytes, fileName, { validatorErrorCodes: gltfValidatorErrorCodes(), ...options });

/** The error checkModelFile throws, for assertions on code and details. */
async function refusal(
  bytes: Uint8Array,
  fileName: string,
  options?: Parameters<typeof checkModelFile>[2],
): Promise<ModelFileError> {
  try {
    await checkModelFile(bytes, fileName, options);
  } catch (error) {
    if (error instanceof ModelFileError) return error;
    throw error;
  }
  throw new Error(`${fileName} was accepted`);
}

const issueCodes = (error: ModelFileError) =>
  ((error.details as { messages?: Array<{ code: string }> })?.messages ?? []).map((m) => m.code);

/** Node names of a GLB, read back with glTF-Transform: proof the output is a usable model. */
async function nodeNames(glb: Uint8Array): Promise<string[]> {
  const doc = await new NodeIO().readBinary(glb);
  return doc
    .getRoot()
    .listNodes()
    .map((n) => n.getName())
    .sort();
}

const CHAIR_NODES = ['Chair', 'Leg_1', 'Leg_2', 'Leg_3', 'Leg_4', 'Seat'];

describe('checkModelFile accepts', () => {
  it('a .glb, unchanged, with the validator summary', async () => {
    const glb = await fixtures.chairGlb();
    const checked = await checkModelFile(glb, 'chair.glb');
    expect(checked.sourceFormat).toBe('glb');
    expect(Buffer.from(checked.glb).equals(Buffer.from(glb))).toBe(true);
    expect(checked.info).toMatchObject({ numWarnings: 0, materialCount: 2, hasTextures: true, totalTriangleCount: 24 });
  });

  it('a .glb held in a slice of a larger buffer (the validator must not read the neighbours)', async () => {
    const glb = await fixtures.chairGlb();
    const pool = Buffer.alloc(glb.length + 100, 0xee);
    pool.set(glb, 50);
    const checked = await checkModelFile(pool.subarray(50, 50 + glb.length), 'chair.glb');
    expect(await nodeNames(checked.glb)).toEqual(CHAIR_NODES);
  });

  it('a .gltf with embedded data: buffers, converted to GLB', async () => {
    const checked = await checkModelFile(await fixtures.chairGltfEmbedded(), 'chair.gltf');
    expect(checked.sourceFormat).toBe('gltf');
    expect(detectFormat(checked.glb)).toBe('glb');
    expect(await nodeNames(checked.glb)).toEqual(CHAIR_NODES);
  });

  it('a .zip of scene.gltf, scene.bin and textures/x.png, at the top or in a folder', async () => {
    for (const zip of [await fixtures.chairZip(), await fixtures.chairZip('source/')]) {
      const checked = await checkModelFile(zip, 'chair.zip');
      expect(checked.sourceFormat).toBe('zip');
      expect(await nodeNames(checked.glb)).toEqual(CHAIR_NODES);
      const doc = await new NodeIO().readBinary(checked.glb);
      expect(doc.getRoot().listTextures()[0].getImage()?.byteLength).toBe(fixtures.makePng().byteLength);
    }
  });

  it('a .zip holding a .glb, ignoring macOS junk next to it', async () => {
    const zip = zipSync({
      'chair.glb': await fixtures.chairGlb(),
      '__MACOSX/._chair.glb': new Uint8Array([1, 2, 3]),
      '.DS_Store': new Uint8Array(4),
    });
    const checked = await checkModelFile(zip, 'chair.zip');
    expect(checked.sourceFormat).toBe('zip');
    expect(await nodeNames(checked.glb)).toEqual(CHAIR_NODES);
  });
});

describe('checkModelFile refuses', () => {
  it('a non-glTF file renamed .glb, and content that does not match its extension', async () => {
    const notModel = await refusal(fixtures.notAModel(), 'chair.glb');
    expect(notModel.code).toBe('invalid_file');
    expect(notModel.statusCode).toBe(422);
    expect(issueCodes(notModel)).toEqual(['NOT_GLTF']);
    expect(issueCodes(await refusal(await fixtures.chairZip(), 'chair.glb'))).toEqual(['NOT_GLTF']);
    expect(issueCodes(await refusal(await fixtures.chairGlb(), 'chair.zip'))).toEqual(['NOT_GLTF']);
  });

  it('other file types', async () => {
    expect(issueCodes(await refusal(await fixtures.chairGlb(), 'chair.obj'))).toEqual(['UNSUPPORTED_FILE_TYPE']);
  });

  it('a model with validator errors, with the validator messages in details', async () => {
    for (const [bytes, name] of [
      [fixtures.jsonBytes(await fixtures.outOfBoundsGltf()), 'broken.gltf'],
      [await fixtures.outOfBoundsGlb(), 'broken.glb'],
    ] as const) {
      const error = await refusal(bytes, name);
      expect(error.code).toBe('invalid_file');
      const details = error.details as {
        numErrors: number;
        messages: Array<{ code: string; severity: number; pointer?: string }>;
      };
      expect(details.numErrors).toBeGreaterThan(0);
      expect(details.messages.map((m) => m.code)).toContain('ACCESSOR_TOO_LONG');
      expect(details.messages.every((m) => m.severity === 0)).toBe(true);
    }
  });

  it('an error the validator reaches only after hundreds of warnings (the same warnings alone pass)', async () => {
    // 300 warnings (an undefined property on each of 300 nodes) come before the error (a scene naming no node).
    const gltf = (nodes: number, brokenScene: boolean) => ({
      asset: { version: '2.0' },
      nodes: Array.from({ length: nodes }, (_, i) => ({ name: `n${i}`, notGltf: true })),
      scenes: [{ nodes: brokenScene ? [nodes + 5] : [0] }],
      scene: 0,
    });
    const hidden = await refusal(fixtures.jsonBytes(gltf(300, true)), 'late-error.gltf');
    expect(hidden.code).toBe('invalid_file');
    expect(issueCodes(hidden)).toContain('UNRESOLVED_REFERENCE');
    // The same warnings without the error: accepted, with its warnings in the summary.
    const { glb, info } = await checkModelFile(fixtures.jsonBytes(gltf(300, false)), 'warnings.gltf');
    expect(glb.byteLength).toBeGreaterThan(0);
    expect((info as { numWarnings: number }).numWarnings).toBeGreaterThanOrEqual(200);
  });

  it('a .gltf that is not JSON', async () => {
    expect(issueCodes(await refusal(new TextEncoder().encode('{ "asset": '), 'x.gltf'))).toEqual(['INVALID_JSON']);
  });

  it('resource URIs leaving the upload: ../../etc/hostname in a .gltf and a zip, URLs, missing files', async () => {
    expect(issueCodes(await refusal(fixtures.jsonBytes(await fixtures.traversalGltf()), 'x.gltf'))).toEqual([
      'EXTERNAL_RESOURCE',
    ]);
    expect(issueCodes(await refusal(await fixtures.traversalZip(), 'x.zip'))).toEqual(['RESOURCE_PATH_ESCAPE']);

    const { json, resources } = await fixtures.chairGltfFiles();
    const withUrl = structuredClone(json) as unknown as { buffers: Array<{ uri: string }> };
    withUrl.buffers[0].uri = 'https://example.com/scene.bin';
    expect(
      issueCodes(
        await refusal(
          zipSync({ 'scene.gltf': fixtures.jsonBytes(withUrl), 'textures/x.png': resources['textures/x.png'] }),
          'x.zip',
        ),
      ),
    ).toEqual(['EXTERNAL_RESOURCE']);
    expect(
      issueCodes(
        await refusal(
          zipSync({ 'scene.gltf': fixtures.jsonBytes(json), 'textures/x.png': resources['textures/x.png'] }),
          'x.zip',
        ),
      ),
    ).toEqual(['RESOURCE_MISSING']);
  });

  it('archives with no model or several', async () => {
    expect(issueCodes(await refusal(zipSync({ 'readme.txt': new Uint8Array(3) }), 'x.zip'))).toEqual(['ZIP_NO_MODEL']);
    const glb = await fixtures.chairGlb();
    expect(issueCodes(await refusal(zipSync({ 'a.glb': glb, 'b.glb': glb }), 'x.zip'))).toEqual([
      'ZIP_MULTIPLE_MODELS',
    ]);
  });

  it('hostile archives: zip slip, nested archive, size fields that lie', async () => {
    expect(issueCodes(await refusal(await fixtures.zipSlip(), 'x.zip'))).toEqual(['ZIP_PATH_ESCAPE']);
    expect(issueCodes(await refusal(await fixtures.nestedZip(), 'x.zip'))).toEqual(['ZIP_NESTED_ARCHIVE']);
    const lying = await refusal(await fixtures.lyingZipBomb(), 'x.zip');
    expect(lying.code).toBe('invalid_file');
    expect(issueCodes(lying)).toEqual(['ZIP_CORRUPT']);
  });

  it('files and archives past the size limits with too_large', async () => {
    const bomb = await refusal(await fixtures.zipBomb(60), 'x.zip');
    expect(bomb.code).toBe('too_large');
    expect(bomb.statusCode).toBe(413);
    expect((await refusal(await fixtures.chairGlb(), 'chair.glb', { maxBytes: 1000 })).code).toBe('too_large');
    // The converted GLB is checked as well as the input.
    const zip = await fixtures.chairZip();
    const glbSize = (await checkModelFile(zip, 'chair.zip')).glb.length;
    expect(zip.length).toBeLessThan(glbSize);
    const converted = await refusal(zip, 'chair.zip', { maxBytes: glbSize - 1 });
    expect(converted.code).toBe('too_large');
    expect(converted.message).toMatch(/converted/);
  });

  it('models that require an extension nothing implements, with conversion_failed', async () => {
    const gltf = await refusal(await fixtures.unknownExtensionGltf(), 'x.gltf');
    expect(gltf.code).toBe('conversion_failed');
    expect(gltf.statusCode).toBe(422);
    expect((await refusal(await fixtures.unknownExtensionGlb(), 'x.glb')).code).toBe('conversion_failed');
  });
});

describe('convertModel (which imports run beside the validator, so it meets files the validator refuses)', () => {
  const convert = (json: Record<string, unknown>, resources = new Map<string, Uint8Array>()) =>
    convertModel({ format: 'gltf', sourceFormat: 'zip', entry: 'scene.gltf', json, resources }).then(
      () => null,
      (error: unknown) => error,
    );
  const bin = new Map([['a.bin', new Uint8Array(8)]]);
  const asset = { version: '2.0' };

  it('refuses malformed buffers, views and images with the rule they break, never a JavaScript error', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ buffers: [{ uri: 'a.bin', byteLength: 8 }] }, /no "asset" object/],
      [{ asset, buffers: [5] }, /every entry of "buffers" must be an object/],
      [{ asset, buffers: [{ uri: 'a.bin', byteLength: -1 }] }, /buffer 0 declares -1 bytes but holds 8/],
      [{ asset, buffers: [{ uri: 'a.bin', byteLength: 9 }] }, /buffer 0 declares 9 bytes but holds 8/],
      [{ asset, buffers: [{ uri: 'b.bin', byteLength: 8 }] }, /buffer 0 refers to "b.bin", which was not uploaded/],
      [{ asset, bufferViews: [{ buffer: 3, byteLength: 4 }] }, /buffer view 0 refers to a buffer that does not exist/],
      [{ asset, images: [{ uri: 'data:image/png,%89PNG' }] }, /image 0 has a data URI that is not base64-encoded/],
    ];
    for (const [json, rule] of cases) {
      const error = await convert(json, bin);
      expect(error, JSON.stringify(json)).toBeInstanceOf(ModelFileError);
      expect((error as ModelFileError).code).toBe('conversion_failed');
      expect((error as ModelFileError).message).toMatch(/^The model could not be converted: /);
      expect((error as ModelFileError).message).toMatch(rule);
    }
  });

  it('keeps the model as it came: only buffers, views and images move into the GLB', async () => {
    const json = {
      asset,
      extensionsUsed: ['EXT_made_up_but_optional'],
      buffers: [{ uri: 'a.bin', byteLength: 8 }],
      bufferViews: [{ buffer: 0, byteLength: 8 }],
      accessors: [{ bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR' }],
      extras: { partNumbers: ['A-1'] },
    };
    const { glb } = await convertModel({
      format: 'gltf',
      sourceFormat: 'zip',
      entry: 'scene.gltf',
      json,
      resources: bin,
    });
    const view = Buffer.from(glb);
    const stored = JSON.parse(view.toString('utf8', 20, 20 + view.readUInt32LE(12)));
    expect(stored).toEqual({
      ...json,
      buffers: [{ byteLength: 8 }],
      bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 8 }],
    });
  });
});
