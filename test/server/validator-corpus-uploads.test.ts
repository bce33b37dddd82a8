import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { uploadForm } from '../helpers/model-fixtures.js';
import { validatorCorpus } from '../helpers/validator-corpus.js';

/**
 * The Khronos validator's test files whose upload differs from the plain verdict, through POST /assets:
 * validator-corpus.test.ts counts them all through the same check.
 */

let server: TestServer;
let owner: TestPerson;
const corpus = new Map(validatorCorpus().map((file) => [file.path, file]));

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.person('validator-corpus@example.com');
});
afterAll(() => server.close());

async function upload(corpusPath: string) {
  const file = corpus.get(corpusPath)!;
  const res = await fetch(`${server.url}/assets`, {
    method: 'POST',
    headers: owner.headers,
    body: uploadForm(file.bytes, file.fileName),
  });
  return { status: res.status, body: await res.json() };
}

const issueCodes = (body: { details?: { messages?: Array<{ code: string }> } }) =>
  (body.details?.messages ?? []).map((m) => m.code);

describe("POST /assets with the glTF validator's test files", () => {
  it("refuses a misplaced extension object with the validator's code", async () => {
    const { status, body } = await upload('ext/KHR_lights_punctual/data/node/unexpected_extension.gltf');
    expect(status).toBe(422);
    expect(body).toMatchObject({ success: false, error: 'invalid_file' });
    expect(issueCodes(body)).toContain('UNEXPECTED_EXTENSION_OBJECT');
  });

  it('accepts the misplaced KHR_node_visibility object the validator it runs cannot check', async () => {
    const { status, body } = await upload('ext/KHR_node_visibility/data/node/unexpected_extension.gltf');
    expect(status, JSON.stringify(body)).toBe(201);
  });

  it('refuses the two valid files a rule of this service refuses, naming the rule', async () => {
    const url = await upload('base/data/buffer/non_relative_uri.gltf');
    expect(url.status).toBe(422);
    expect(url.body).toMatchObject({ success: false, error: 'invalid_file' });
    expect(issueCodes(url.body)).toEqual(['EXTERNAL_RESOURCE']);
    expect(url.body.message).toContain('URLs are never fetched');

    const image = await upload('base/data/image/unrecognized_format.gltf');
    expect(image.status).toBe(422);
    expect(image.body).toMatchObject({ success: false, error: 'conversion_failed' });
    expect(image.body.message).toContain('an image stored inside a GLB needs its media type');
  });

  it('stores a GLB followed by stray bytes as the GLB its header declares', async () => {
    const { status, body } = await upload('base/data/glb/extra_data.glb');
    expect(status, JSON.stringify(body)).toBe(201);
    const stored = new Uint8Array(await (await fetch(body.asset.url)).arrayBuffer());
    const uploaded = corpus.get('base/data/glb/extra_data.glb')!.bytes;
    const declaredLength = new DataView(uploaded.buffer, uploaded.byteOffset).getUint32(8, true);
    expect(declaredLength).toBeLessThan(uploaded.byteLength);
    expect(Buffer.from(stored).equals(Buffer.from(uploaded.subarray(0, declaredLength)))).toBe(true);
  });
});
