import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEST_SECRETS, freePort } from '../helpers/test-env.js';
import { startTestBff, type TestBff } from '../helpers/bff-app.js';

/** The element bundle and the demo pages, from folders of fake files. */
let dir: string;
let bff: TestBff;
let unbuilt: TestBff;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cs-bff-static-'));
  await mkdir(path.join(dir, 'element/assets'), { recursive: true });
  await mkdir(path.join(dir, 'demo'));
  await writeFile(path.join(dir, 'element/config-share.js'), 'import("./assets/viewer-3f9a1c.js");\n');
  await writeFile(path.join(dir, 'element/assets/viewer-3f9a1c.js'), 'export const viewer = 1;\n');
  await writeFile(path.join(dir, 'demo/index.html'), '<!doctype html><title>demo</title>\n');
  await writeFile(path.join(dir, 'demo/app.js'), 'console.log("demo");\n');
  await mkdir(path.join(dir, 'console/assets'), { recursive: true });
  await writeFile(path.join(dir, 'console/index.html'), '<!doctype html><title>owner console</title>\n');
  await writeFile(path.join(dir, 'console/assets/index-1a2b3c.js'), 'export {};\n');
  // No upstream is needed for static files.
  const env = { ...TEST_SECRETS, BFF_UPSTREAM_URL: `http://127.0.0.1:${await freePort()}`, LOG_LEVEL: 'silent' };
  bff = await startTestBff(
    { ...env, CONSOLE_API_URL: 'https://api.example.com/' },
    { elementDir: path.join(dir, 'element'), demoDir: path.join(dir, 'demo'), consoleDir: path.join(dir, 'console') },
  );
  unbuilt = await startTestBff(env, {
    elementDir: path.join(dir, 'no-build'),
    demoDir: path.join(dir, 'demo'),
    consoleDir: path.join(dir, 'no-build'),
  });
});

afterAll(async () => {
  await bff?.close();
  await unbuilt?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('BFF static files', () => {
  it('serves the owner console at /demo/owner/, unframeable and without Referer, and where its API is', async () => {
    const page = await fetch(`${bff.url}/demo/owner/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('owner console');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    // Scripts from the page's own origin only; calls (with the owner token) to it and the API only.
    const policy = Object.fromEntries(
      page.headers
        .get('content-security-policy')!
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...sources]) => [name, sources]),
    );
    expect(policy).toMatchObject({
      'default-src': ["'self'"],
      'script-src': ["'self'", "'wasm-unsafe-eval'"],
      'connect-src': ["'self'", 'https://api.example.com', 'blob:'],
      'style-src': ["'self'"],
      'object-src': ["'none'"],
      'frame-ancestors': ["'none'"],
    });
    const chunk = await fetch(`${bff.url}/demo/owner/assets/index-1a2b3c.js`);
    expect(chunk.headers.get('cache-control')).toContain('immutable');
    expect(await (await fetch(`${bff.url}/demo/owner/config.json`)).json()).toEqual({
      apiBase: 'https://api.example.com',
    });
    // The other demo pages are still there; an unbuilt console is a 404.
    expect((await fetch(`${bff.url}/demo/index.html`)).status).toBe(200);
    expect((await fetch(`${unbuilt.url}/demo/owner/index.html`)).status).toBe(404);
  });

  it('serves the element entry short-lived, with open CORS and an ETag', async () => {
    const res = await fetch(`${bff.url}/element/config-share.js`, { headers: { origin: 'https://shop.example.com' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(await res.text()).toContain('viewer-3f9a1c.js');
    // fetch adds `Cache-Control: no-cache` to a conditional request unless told otherwise, as a reload would.
    expect(
      (
        await fetch(`${bff.url}/element/config-share.js`, {
          headers: { 'if-none-match': etag!, 'cache-control': 'max-age=0' },
        })
      ).status,
    ).toBe(304);
  });

  it('serves hashed chunks as immutable', async () => {
    const res = await fetch(`${bff.url}/element/assets/viewer-3f9a1c.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it("answers a missing file with the API's 404 body, readable cross-origin", async () => {
    const res = await fetch(`${bff.url}/element/assets/missing-000000.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-api-version')).toBe('v3.16');
    expect(await res.json()).toMatchObject({ success: false, error: 'not_found' });
  });

  it('starts without an element build and answers its entry 404 with the API error body', async () => {
    const res = await fetch(`${unbuilt.url}/element/config-share.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toMatchObject({ success: false, error: 'not_found' });
  });

  it('serves the demo at /demo/, and redirects /demo there', async () => {
    const page = await fetch(`${bff.url}/demo/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('<title>demo</title>');
    expect((await fetch(`${bff.url}/demo/app.js`)).status).toBe(200);
    const bare = await fetch(`${bff.url}/demo`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/demo/');
  });
});
