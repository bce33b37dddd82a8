import { readFile, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { demoStoolGlb } from '../../scripts/start/demo-model.js';
import { ELEMENT_ENTRY } from '../../scripts/start/element-build.js';
import type { Request } from 'playwright-core';
import sharp from 'sharp';
import { openShopBrowser } from './shop-browser.js';

/**
 * The element's figures: the loader's gzipped size, and navigation to the first drawn frame of one GLB next to
 * @google/model-viewer alone on the same GLB in the same Chromium (the anchor).
 */
export interface ElementFigures {
  loaderGzipBytes: number;
  elementFirstFrameMs: number;
  modelViewerFirstFrameMs: number;
  /** Response bytes as sent (compressed where the server compressed them) each page received by its first frame. */
  elementBytes: number;
  modelViewerBytes: number;
  /** Pages loaded of each kind, and every measurement in order. */
  rounds: number;
  elementSamples: number[];
  modelViewerSamples: number[];
}

/** The GLB both pages show, uploaded through POST /assets; the element's page reads it through the public read. */
export interface FirstFrameModel {
  glb: Uint8Array;
  fileName: string;
  /** Resolves once the uploaded asset is ready to be shown (its delivery file made, say). */
  ready?: (assetId: string) => Promise<void>;
}

/** Alternating loads of each page (BENCH_ELEMENT_ROUNDS, default 5). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ELEMENT_ROUNDS ?? 5));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Whether every pixel of a PNG (or none could be taken: empty) is the same colour. */
async function oneColour(png: Buffer): Promise<boolean> {
  if (png.byteLength === 0) return true;
  const { channels } = await sharp(png).stats();
  return channels.every((channel) => channel.min === channel.max);
}

export async function measureElement(options: {
  apiUrl: string;
  bffUrl: string;
  ownerHeaders: Record<string, string>;
  /** Default: the demo stool. */
  model?: FirstFrameModel;
}): Promise<ElementFigures> {
  const { apiUrl, bffUrl, ownerHeaders } = options;
  const loaderGzipBytes = gzipSync(await readFile(ELEMENT_ENTRY), { level: 9 }).byteLength;
  const model = options.model ?? { glb: await demoStoolGlb(), fileName: 'stool.glb' };

  // One project whose one model is the uploaded one, shared.
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(model.glb)], { type: 'model/gltf-binary' }), model.fileName);
  const uploaded = await fetch(`${apiUrl}/assets`, {
    method: 'POST',
    headers: { authorization: ownerHeaders.authorization },
    body: form,
  });
  if (!uploaded.ok) throw new Error(`bench: POST /assets answered ${uploaded.status}: ${await uploaded.text()}`);
  const { asset } = await uploaded.json();
  await model.ready?.(asset.id);
  const { project } = await (
    await fetch(`${apiUrl}/projects`, {
      method: 'POST',
      headers: ownerHeaders,
      body: JSON.stringify({
        name: 'first frame',
        type: 'configurator',
        data: { models: [{ id: 'model', fileName: asset.fileName, assetId: asset.id }], sceneData: {} },
      }),
    })
  ).json();
  const { settings } = await (
    await fetch(`${apiUrl}/projects/${project.id}/share/enable`, {
      method: 'POST',
      headers: { authorization: ownerHeaders.authorization },
    })
  ).json();
  const glbUrl: string = asset.url;

  // The pages, on an origin of their own as a shop would be. Each records its first frame in window.firstFrame.
  const pages: Record<string, string> = {
    '/element.html': `<!doctype html><script type="module" src="${bffUrl}/element/config-share.js"></script>
      <config-share project-id="${project.id}" token="${settings.shareToken}"
        style="display:block;width:400px;height:400px"></config-share>
      <script type="module">
        // The scene's canvas is there and its progress bar gone: the model is parsed and drawn. The
        // frame reaches the screen at the next animation frame, as model-viewer's load event does.
        // Nothing heavy runs while loading (a screenshot per frame would compete with the parse);
        // the drawn frame is checked for content afterwards (window.drawnPng), outside the timing.
        const el = document.querySelector('config-share');
        // A model the element could not download or parse is left out of a scene that is still 'ready'.
        el.addEventListener('config-share-model-missing', (event) => (window.modelsMissing = event.detail.modelIds));
        (function poll() {
          const root = el.shadowRoot;
          const drawn = root?.querySelector('.stage canvas') && !root.querySelector('progress');
          const done = el.getAttribute('state') === 'ready' && drawn;
          requestAnimationFrame(done ? () => {
            window.firstFrame = performance.now();
            el.screenshot().then(
              (png) => (window.drawnPng = png),
              () => (window.drawnPng = ''),
            );
          } : poll);
        })();
      </script>`,
    '/model-viewer.html': `<!doctype html><script type="module" src="/model-viewer.min.js"></script>
      <model-viewer src="${glbUrl}" style="display:block;width:400px;height:400px" loading="eager"></model-viewer>
      <script type="module">
        // model-viewer fires load once the first frame is drawn (two animation frames after the model is ready).
        document.querySelector('model-viewer').addEventListener('load', () => (window.firstFrame = performance.now()));
      </script>`,
  };
  const shop = await openShopBrowser(pages);
  const { browser } = shop;
  try {
    /** BENCH_PROFILE_DIR: the last round of each page is CPU-profiled there (`<page>.cpuprofile`, main thread). */
    const profileDir = process.env.BENCH_PROFILE_DIR;
    const firstFrame = async (page: string, profile = false) => {
      const context = await browser.newContext(); // a cold cache each time
      const finished: Request[] = [];
      context.on('requestfinished', (request) => finished.push(request));
      const tab = await context.newPage();
      const cdp = profile ? await context.newCDPSession(tab) : undefined;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      await tab.goto(shop.url(page));
      const ms = (await tab
        .waitForFunction(() => (globalThis as { firstFrame?: number }).firstFrame, undefined, {
          timeout: 120_000,
          polling: 50,
        })
        .then((handle) => handle.jsonValue())) as number;
      const bodies = await Promise.all(finished.map(async (request) => (await request.sizes()).responseBodySize));
      const bytes = bodies.reduce((sum, size) => sum + size, 0);
      if (cdp && profileDir) {
        const { profile: taken } = await cdp.send('Profiler.stop');
        const name = page.slice(1, -'.html'.length);
        await writeFile(path.join(profileDir, `${name}.cpuprofile`), JSON.stringify(taken));
        // When each file started and arrived, next to the first frame: where the wait is.
        const resources = await tab.evaluate(() =>
          performance.getEntriesByType('resource').map((entry) => {
            const end = Math.round((entry as unknown as { responseEnd: number }).responseEnd);
            return `${Math.round(entry.startTime)}-${end} ms ${entry.name.replace(/\?.*$/, '')}`;
          }),
        );
        await writeFile(
          path.join(profileDir, `${name}.resources.txt`),
          [...resources, `first frame ${Math.round(ms)} ms`].join('\n'),
        );
      }
      if (page === '/element.html') {
        type Drawn = { drawnPng?: string; modelsMissing?: string[] };
        const { png, missing } = (await tab
          .waitForFunction(
            () => {
              const page = globalThis as Drawn;
              return page.drawnPng !== undefined && { png: page.drawnPng, missing: page.modelsMissing };
            },
            undefined,
            { timeout: 30_000, polling: 50 },
          )
          .then((handle) => handle.jsonValue())) as { png: string; missing?: string[] };
        if (missing) throw new Error(`the element left its model out of the scene (${missing.join(', ')})`);
        const frame = Buffer.from(png.replace(/^data:image\/png;base64,/, ''), 'base64');
        if (await oneColour(frame))
          throw new Error('the element reported its model drawn, but its canvas is one colour');
        // The drawn frame itself, to look at next to the profile.
        if (cdp && profileDir) await writeFile(path.join(profileDir, 'element-first-frame.png'), frame);
      }
      await context.close();
      return { ms, bytes };
    };
    const element: number[] = [];
    const anchor: number[] = [];
    const elementBytes: number[] = [];
    const anchorBytes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const profile = profileDir !== undefined && round === ROUNDS - 1;
      const elementRound = await firstFrame('/element.html', profile);
      const anchorRound = await firstFrame('/model-viewer.html', profile);
      element.push(elementRound.ms);
      anchor.push(anchorRound.ms);
      elementBytes.push(elementRound.bytes);
      anchorBytes.push(anchorRound.bytes);
    }
    return {
      loaderGzipBytes,
      elementFirstFrameMs: median(element),
      modelViewerFirstFrameMs: median(anchor),
      elementBytes: median(elementBytes),
      modelViewerBytes: median(anchorBytes),
      rounds: ROUNDS,
      elementSamples: element,
      modelViewerSamples: anchor,
    };
  } finally {
    await shop.close();
  }
}
