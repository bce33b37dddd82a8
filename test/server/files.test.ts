import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let server: TestServer;
const key = 'workspaces/00000000-0000-4000-8000-000000000001/assets/fixture.glb';
const bytes = new Uint8Array(Array.from({ length: 1000 }, (_, i) => i % 251));

beforeAll(async () => {
  server = await startTestServer();
  await server.deps.storage.put(key, bytes, { contentType: 'model/gltf-binary' });
});
afterAll(() => server.close());

const now = () => Math.floor(Date.now() / 1000);

/** A raw GET whose path is sent exactly as written (fetch would normalise `..` away). */
function rawGet(pathAndQuery: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.url}${pathAndQuery}`, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    request.on('error', reject);
  });
}

describe('GET /files/*', () => {
  it('streams the file behind a signed URL, with its content type, validators and open CORS', async () => {
    const res = await fetch(server.deps.signer.signFor(key, 3600));
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    expect(res.headers.get('content-type')).toBe('model/gltf-binary');
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toBeTruthy();
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect(res.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const head = await fetch(server.deps.signer.signFor(key, 3600), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('1000');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers a Range request with 206 and exactly that slice', async () => {
    const res = await fetch(server.deps.signer.signFor(key, 3600), { headers: { range: 'bytes=100-199' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(bytes.subarray(100, 200)))).toBe(true);
    const tail = await fetch(server.deps.signer.signFor(key, 3600), { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect([...new Uint8Array(await tail.arrayBuffer())]).toEqual([...bytes.subarray(990)]);
    // Past the end: 416 with the file's length, as the error body.
    const past = await fetch(server.deps.signer.signFor(key, 3600), { headers: { range: 'bytes=5000-6000' } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */1000');
    expect(await past.json()).toMatchObject({ success: false, error: 'invalid_request' });
  });

  it('answers a conditional GET with 304 while the file is unchanged', async () => {
    const url = new URL(server.deps.signer.signFor(key, 3600));
    const first = await fetch(url);
    await first.arrayBuffer();
    // Sent raw: fetch adds Cache-Control: no-cache to hand-made conditional requests, which forbids a 304.
    const again = await rawGet(url.pathname + url.search, { 'if-none-match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    const since = await rawGet(url.pathname + url.search, { 'if-modified-since': first.headers.get('last-modified')! });
    expect(since.status).toBe(304);
    const changed = await rawGet(url.pathname + url.search, { 'if-none-match': 'W/"something-else"' });
    expect(changed.status).toBe(200);
  });

  it('serves images and PDFs with their own content types', async () => {
    for (const [name, type] of [
      ['shot.png', 'image/png'],
      ['shot.jpg', 'image/jpeg'],
      ['shot.webp', 'image/webp'],
      ['request.pdf', 'application/pdf'],
    ]) {
      const fileKey = `workspaces/w/requests/r/${name}`;
      await server.deps.storage.put(fileKey, new Uint8Array([1, 2, 3]), { contentType: type });
      const res = await fetch(server.deps.signer.signFor(fileKey, 60));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('refuses a tampered, foreign, missing or expired signature with 403 forbidden', async () => {
    const url = new URL(server.deps.signer.signFor(key, 3600));
    const sig = url.searchParams.get('sig')!;
    const exp = url.searchParams.get('exp')!;
    const variants = [
      `${url.pathname}?exp=${exp}&sig=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`,
      `${url.pathname}?exp=${Number(exp) + 1}&sig=${sig}`,
      `${url.pathname.replace('fixture.glb', 'other.glb')}?exp=${exp}&sig=${sig}`,
      `${url.pathname}?exp=${exp}`,
      `${url.pathname}`,
      `${url.pathname}?exp=soon&sig=${sig}`,
    ];
    for (const variant of variants) {
      const res = await fetch(`${server.url}${variant}`);
      expect(res.status, variant).toBe(403);
      expect(await res.json()).toMatchObject({ success: false, error: 'forbidden' });
    }
    const expired = await fetch(server.deps.signer.sign(key, now() - 5));
    expect(expired.status).toBe(403);
    expect((await expired.json()).error).toBe('forbidden');
  });

  it('refuses keys that try to leave the storage folder with 404, even when signed', async () => {
    const escape = 'workspaces/../../../../etc/hostname';
    // A valid signature for the hostile key itself: the key check must not rely on the signature.
    const signed = new URL(server.deps.signer.sign(escape, now() + 60)).searchParams;
    const raw = await rawGet(`/files/${escape}?exp=${signed.get('exp')}&sig=${signed.get('sig')}`);
    expect(raw.status).toBe(404);
    expect(JSON.parse(raw.body)).toMatchObject({ success: false, error: 'not_found' });
    const sig = new URL(server.deps.signer.sign(key, now() + 60)).searchParams;
    const encoded = await fetch(
      `${server.url}/files/workspaces/..%2F..%2F..%2F..%2Fetc%2Fhostname?exp=${sig.get('exp')}&sig=${sig.get('sig')}`,
    );
    expect(encoded.status).toBe(404);
    expect((await encoded.json()).error).toBe('not_found');
  });

  it('answers 404 for a signed URL whose file does not exist', async () => {
    const res = await fetch(server.deps.signer.signFor('workspaces/w/assets/missing.glb', 60));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, error: 'not_found' });
  });

  it('answers a CORS preflight for range requests from any origin', async () => {
    const res = await fetch(server.deps.signer.signFor(key, 60), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'range',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('range');
  });
});
