import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** GET /schemas/project-data.json: the published project data schema, and the OpenAPI description's use of it. */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const schemaUrl = () => `${server.url}/schemas/project-data.json`;

describe('the project data schema route', () => {
  it('answers without credentials, cacheable, as a draft 2020-12 schema with its own address', async () => {
    const res = await fetch(schemaUrl());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/schema\+json/);
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    const body = await res.json();
    expect(body).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: schemaUrl(),
      type: 'object',
    });
    expect(Object.keys(body.properties)).toEqual([
      'models',
      'sceneData',
      'camera',
      'renderQuality',
      'saveConfigEnabled',
    ]);
  });

  it('answers 304 to a client that holds it', async () => {
    const etag = (await fetch(schemaUrl())).headers.get('etag')!;
    for (const held of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const res = await fetch(schemaUrl(), { headers: { 'if-none-match': held } });
      expect(res.status, held).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect(await res.text()).toBe('');
    }
    expect((await fetch(schemaUrl(), { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('is what the OpenAPI description gives as the data of project saves, which stay lenient', async () => {
    const openapi = await (await fetch(`${server.url}/openapi.json`)).json();
    for (const operation of [openapi.paths['/projects'].post, openapi.paths['/projects/{id}'].put]) {
      const data = operation.requestBody.content['application/json'].schema.properties.data;
      expect(data.allOf).toEqual([{ $ref: schemaUrl() }]);
    }

    const owner = await server.person('lenient@example.com');
    const res = await fetch(`${server.url}/projects`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Off the schema',
        type: 'configurator',
        data: { models: [], sceneData: { optionBlocks: [{ id: 'a', choices: [{ id: 'b', price: 'forty' }] }] } },
      }),
    });
    expect(res.status).toBe(201);
  });
});
