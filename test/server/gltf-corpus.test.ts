import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as validator from 'gltf-validator';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { uploadForm } from '../helpers/model-fixtures.js';
import { gltfCorpus, uploadBytes, type CorpusCase } from '../helpers/gltf-corpus.js';

/**
 * Every corpus model through POST /assets: what the Khronos validator passes becomes a GLB that passes it too and
 * holds the same model; what it refuses is refused with the validator's own issue codes.
 */

let server: TestServer;
let owner: TestPerson;
const corpus = await gltfCorpus();

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.person('corpus@example.com');
});
afterAll(() => server.close());

/** The validator's report on a corpus file as it would be uploaded (its resources beside it). */
function validateCase(c: CorpusCase) {
  return validator.validateBytes(c.files[c.entry], {
    uri: c.entry,
    format: 'gltf',
    writeTimestamp: false,
    externalResourceFunction: (uri) =>
      c.files[uri] ? Promise.resolve(c.files[uri]) : Promise.reject(new Error(`${uri} is not in the corpus case`)),
  });
}

/** What a person sees of a model: the validator's summary of what it holds. */
const SUMMARY_KEYS = [
  'extensionsUsed',
  'extensionsRequired',
  'animationCount',
  'materialCount',
  'hasMorphTargets',
  'hasSkins',
  'hasTextures',
  'drawCallCount',
  'totalVertexCount',
  'totalTriangleCount',
] as const;
const summary = (info: Record<string, unknown> | undefined) =>
  Object.fromEntries(SUMMARY_KEYS.map((key) => [key, info?.[key] ?? null]));

async function upload(c: CorpusCase) {
  const res = await fetch(`${server.url}/assets`, {
    method: 'POST',
    headers: owner.headers,
    body: uploadForm(uploadBytes(c), c.fileName, c.title.slice(0, 100)),
  });
  return { status: res.status, body: await res.json() };
}

describe('the glTF corpus through POST /assets', () => {
  it('covers every class of model with both outcomes', async () => {
    const reports = await Promise.all(corpus.map(validateCase));
    expect(reports.filter((r) => r.issues.numErrors === 0).length).toBeGreaterThanOrEqual(15);
    expect(reports.filter((r) => r.issues.numErrors > 0).length).toBeGreaterThanOrEqual(1);
  });

  for (const c of corpus) {
    it(c.title, async () => {
      const report = await validateCase(c);
      const { status, body } = await upload(c);
      if (report.issues.numErrors > 0) {
        // The validator refuses it: so does the upload, with the validator's issue codes.
        expect(status, JSON.stringify(body).slice(0, 300)).toBe(422);
        expect(body).toMatchObject({ success: false, error: 'invalid_file' });
        const codes = body.details.messages.map((m: { code: string }) => m.code);
        for (const issue of report.issues.messages.filter((m) => m.severity === 0)) expect(codes).toContain(issue.code);
        return;
      }
      expect(status, JSON.stringify(body).slice(0, 300)).toBe(201);
      expect(body.asset).toMatchObject({
        contentType: 'model/gltf-binary',
        sourceFormat: c.fileName.endsWith('.zip') ? 'zip' : 'gltf',
      });
      const stored = new Uint8Array(await (await fetch(body.asset.url)).arrayBuffer());
      const output = await validator.validateBytes(stored, { format: 'glb', writeTimestamp: false });
      expect(output.issues.messages.filter((m) => m.severity === 0)).toEqual([]);
      expect(summary(output.info)).toEqual(summary(report.info));
    });
  }

  it('names the rule when a model cannot be packed, never a JavaScript error', async () => {
    // An image whose bytes are no image format a GLB can label (the validator only warns).
    const json = { asset: { version: '2.0' }, images: [{ uri: 'picture.img' }] };
    const c: CorpusCase = {
      title: 'an image of unknown format',
      fileName: 'odd.zip',
      entry: 'odd.gltf',
      files: {
        'odd.gltf': new TextEncoder().encode(JSON.stringify(json)),
        'picture.img': new TextEncoder().encode('not an image'),
      },
    };
    expect((await validateCase(c)).issues.numErrors).toBe(0);
    const { status, body } = await upload(c);
    expect(status).toBe(422);
    expect(body).toMatchObject({ success: false, error: 'conversion_failed' });
    expect(body.message).toBe(
      'The model could not be converted: image 0 is not a PNG, JPEG, WebP, AVIF or KTX2 image; ' +
        'an image stored inside a GLB needs its media type.',
    );
  });
});
