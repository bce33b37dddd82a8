import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { demoStoolGlb } from '../../scripts/start/demo-model.js';
import { ELEMENT_ENTRY } from '../../scripts/start/element-build.js';
import { freePort } from '../helpers/test-env.js';

/**
 * The element's own figures: the loader's gzipped size, and the time from navigation to the
 * first drawn frame of one GLB, next to @google/model-viewer alone showing the same GLB in the
 * same Chromium (the anchor). Each page is loaded ROUNDS times, alternating; medians reported.
 */
export interface ElementFigures {
  loaderGzipBytes: number;
  elementFirstFrameMs: number;
  modelViewerFirstFrameMs: number;
  /** Pages loaded of each kind, and every measurement in order. */
  rounds: number;
  elementSamples: number[];
  modelViewerSamples: number[];
}

/** Alternating loads of each page (BENCH_ELEMENT_ROUNDS, default 5). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ELEMENT_ROUNDS ?? 5));
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function measureElement(options: { apiUrl: string; bffUrl: string; ownerHeaders: Record<string, string> }): Promise<ElementFigures> {
  const { apiUrl, bffUrl, ownerHeaders } = options;
  const loaderGzipBytes = gzipSync(await readFile(ELEMENT_ENTRY), { level: 9 }).byteLength;

  // One project whose one model is the demo stool, shared.
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(await demoStoolGlb())], { type: 'model/gltf-binary' }), 'stool.glb');
  const { asset } = await (await fetch(`${apiUrl}/assets`, { method: 'POST', headers: { authorization: ownerHeaders.authorization }, body: form })).json();
  const { project } = await (
    await fetch(`${apiUrl}/projects`, {
      method: 'POST',
      headers: ownerHeaders,
      body: JSON.stringify({ name: 'first frame', type: 'configurator', data: { models: [{ id: 'stool', fileName: asset.fileName, assetId: asset.id }], sceneData: {} } }),
    })
  ).json();
  const { settings } = await (await fetch(`${apiUrl}/projects/${project.id}/share/enable`, { method: 'POST', headers: { authorization: ownerHeaders.authorization } })).json();
  const glbUrl: string = asset.url;

  // The pages, on an origin of their own as a shop would be. Each records its first frame in window.firstFrame.
  const modelViewerJs = await readFile(path.resolve('node_modules/@google/model-viewer/dist/model-viewer.min.js'));
  const pages: Record<string, string> = {
    '/element.html': `<!doctype html><script type="module" src="${bffUrl}/element/config-share.js"></script>
      <config-share project-id="${project.id}" token="${settings.shareToken}" style="display:block;width:400px;height:400px"></config-share>
      <script type="module">
        const el = document.querySelector('config-share');
        const blank = (png) => png.length < 3000; // a one-colour 400 × 400 PNG is a few hundred bytes
        (async function poll() {
          const png = el.getAttribute('state') === 'ready' ? await el.screenshot().catch(() => null) : null;
          if (png && !blank(png)) window.firstFrame = performance.now();
          else requestAnimationFrame(poll);
        })();
      </script>`,
    '/model-viewer.html': `<!doctype html><script type="module" src="/model-viewer.min.js"></script>
      <model-viewer src="${glbUrl}" style="display:block;width:400px;height:400px" loading="eager"></model-viewer>
      <script type="module">
        // model-viewer fires load once the first frame is drawn (two animation frames after the model is ready).
        document.querySelector('model-viewer').addEventListener('load', () => (window.firstFrame = performance.now()));
      </script>`,
  };
  const port = await freePort();
  const shop = createServer((request, response) => {
    if (request.url === '/model-viewer.min.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      return response.end(modelViewerJs);
    }
    const html = pages[request.url ?? ''];
    response.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => shop.listen(port, '127.0.0.1', resolve));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--enable-unsafe-swiftshader', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  try {
    const firstFrame = async (page: string) => {
      const context = await browser.newContext(); // a cold cache each time
      const tab = await context.newPage();
      await tab.goto(`http://localhost:${port}${page}`);
      const ms = (await tab.waitForFunction(() => (globalThis as { firstFrame?: number }).firstFrame, undefined, { timeout: 120_000, polling: 50 }).then((handle) => handle.jsonValue())) as number;
      await context.close();
      return ms;
    };
    const element: number[] = [];
    const anchor: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      element.push(await firstFrame('/element.html'));
      anchor.push(await firstFrame('/model-viewer.html'));
    }
    return { loaderGzipBytes, elementFirstFrameMs: median(element), modelViewerFirstFrameMs: median(anchor), rounds: ROUNDS, elementSamples: element, modelViewerSamples: anchor };
  } finally {
    await browser.close();
    await new Promise((resolve) => shop.close(resolve));
  }
}
