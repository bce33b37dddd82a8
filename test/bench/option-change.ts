import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { demoStoolGlb } from '../../scripts/start/demo-model.js';
import { demoProjectData } from '../../scripts/start/demo-data.js';
import { freePort } from '../helpers/test-env.js';

/**
 * Option change to the next drawn frame (contract 12.14), on the demo stool in one headless
 * Chromium: our element's `setOption('legs', …)` next to @google/model-viewer 4.4 switching
 * `variantName` on the same GLB (the anchor), steel and brass alternating. The method is the
 * one verified in design/notes/configurator.md §1: t0 right after an animation frame, just
 * before `variantName` is set or `setOption` called (the same phase for both, so neither gains
 * part of a frame); t1 in the animation frame requested once the change is applied, which runs
 * after the viewer's own frame callback, so in the frame that drew the change. Both should land
 * on the next frame, so the rAF interval is printed beside them.
 */
export interface OptionChangeFigures {
  switches: number;
  modelViewer: Timings;
  /** Null when this build of the element has no `setOption` (the configurator API is not there yet). */
  element: Timings | null;
  /** Why the element was not measured. */
  elementNote?: string;
}

interface Timings {
  /** t0 to the frame that drew the change, ms. */
  median: number;
  p95: number;
  /** t0 to the change applied (model-viewer's `variant-applied`, the element's change event), ms. */
  appliedMedian: number;
  /** The page's animation-frame interval, median of 60, ms. */
  frameInterval: number;
  samples: number[];
}

/** Switches of each kind (BENCH_OPTION_SWITCHES, default 50), after two unmeasured ones. */
const SWITCHES = Math.max(2, Number(process.env.BENCH_OPTION_SWITCHES ?? 50));
const WARM_UP = 2;
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];
const p95 = (values: number[]) => sorted(values)[Math.max(0, Math.ceil(values.length * 0.95) - 1)];

/** What each page runs in the browser once its model is drawn; `switchTo` applies one choice. */
const MEASURE = `
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  window.frameInterval = async () => {
    const stamps = [];
    for (let i = 0; i < 61; i++) stamps.push(await frame());
    const deltas = stamps.slice(1).map((t, i) => t - stamps[i]).sort((a, b) => a - b);
    return deltas[Math.floor(deltas.length / 2)];
  };
  // One switch per frame: t0 right after a frame, the change applied, then the frame that drew it.
  window.measureSwitches = async (count, warmUp, switchTo) => {
    const drawn = [];
    const applied = [];
    for (let i = 0; i < count + warmUp; i++) {
      const choice = i % 2 === 0 ? 'brass' : 'steel';
      await frame();
      const t0 = performance.now();
      await switchTo(choice);
      const t = performance.now();
      const t1 = await new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
      if (i >= warmUp) {
        drawn.push(t1 - t0);
        applied.push(t - t0);
      }
    }
    return { drawn, applied };
  };
`;

export async function measureOptionChange(options: {
  apiUrl: string;
  bffUrl: string;
  ownerHeaders: Record<string, string>;
}): Promise<OptionChangeFigures> {
  const { apiUrl, bffUrl, ownerHeaders } = options;
  const owner = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${apiUrl}${url}`, {
      method,
      headers: body instanceof FormData ? { authorization: ownerHeaders.authorization } : ownerHeaders,
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}`);
    return res.json();
  };
  // The demo project itself: the stool with its configurator (legs: a variant per choice).
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(await demoStoolGlb())], { type: 'model/gltf-binary' }), 'stool.glb');
  const { asset } = await owner('POST', '/assets', form);
  const { project } = await owner('POST', '/projects', {
    name: 'option change',
    type: 'configurator',
    data: demoProjectData({ id: 'stool', fileName: asset.fileName, assetId: asset.id }),
  });
  const { settings } = await owner('POST', `/projects/${project.id}/share/enable`);
  const glbUrl: string = asset.url;

  const modelViewerJs = await readFile(path.resolve('node_modules/@google/model-viewer/dist/model-viewer.min.js'));
  const pages: Record<string, string> = {
    '/model-viewer.html': `<!doctype html><script type="module" src="/model-viewer.min.js"></script>
      <model-viewer src="${glbUrl}" style="display:block;width:400px;height:400px" loading="eager"></model-viewer>
      <script>${MEASURE}</script>
      <script type="module">
        const viewer = document.querySelector('model-viewer');
        viewer.addEventListener('load', () => (window.ready = true));
        // variantName set, then its variant-applied (fired before model-viewer's next frame draws it).
        window.switchTo = (name) => new Promise((resolve) => {
          viewer.addEventListener('variant-applied', resolve, { once: true });
          viewer.variantName = name;
        });
      </script>`,
    '/element.html': `<!doctype html><script type="module" src="${bffUrl}/element/config-share.js"></script>
      <config-share project-id="${project.id}" token="${settings.shareToken}"
        style="display:block;width:400px;height:400px"></config-share>
      <script>${MEASURE}</script>
      <script type="module">
        const el = document.querySelector('config-share');
        // Ready: the state attribute, a drawn canvas and the configurator answering (contract 12.9).
        (async function poll() {
          const root = el.shadowRoot;
          const drawn =
            el.getAttribute('state') === 'ready' && root?.querySelector('canvas') && !root.querySelector('progress');
          if (drawn && typeof el.setOption !== 'function') return (window.ready = 'no-api');
          if (drawn && (await el.getConfiguration?.())) return (window.ready = true);
          setTimeout(poll, 50);
        })();
        // The change is applied when the element says so (its option-change event) or setOption settles,
        // whichever is first; the element asked for its frame then.
        window.switchTo = (choice) => new Promise((resolve, reject) => {
          el.addEventListener('config-share-option-change', () => resolve(), { once: true });
          const refused = () => reject(new Error('setOption refused legs ' + choice));
          el.setOption('legs', choice).then((ok) => (ok ? resolve() : refused()));
        });
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
    args: [
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--enable-unsafe-swiftshader',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  const open = async (page: string): Promise<{ tab: Page; ready: unknown }> => {
    const tab = await (await browser.newContext()).newPage();
    await tab.goto(`http://localhost:${port}${page}`);
    const ready = await tab
      .waitForFunction(() => (globalThis as { ready?: unknown }).ready, undefined, { timeout: 120_000, polling: 50 })
      .then((handle) => handle.jsonValue());
    return { tab, ready };
  };
  const measure = async (tab: Page): Promise<Timings> => {
    const frameInterval = (await tab.evaluate('window.frameInterval()')) as number;
    const { drawn, applied } = (await tab.evaluate(
      `window.measureSwitches(${SWITCHES}, ${WARM_UP}, window.switchTo)`,
    )) as { drawn: number[]; applied: number[] };
    return { median: median(drawn), p95: p95(drawn), appliedMedian: median(applied), frameInterval, samples: drawn };
  };
  try {
    const anchor = await open('/model-viewer.html');
    const modelViewer = await measure(anchor.tab);
    await anchor.tab.context().close();

    const ours = await open('/element.html');
    if (ours.ready === 'no-api')
      return {
        switches: SWITCHES,
        modelViewer,
        element: null,
        elementNote: 'not available: the element has no setOption',
      };
    const element = await measure(ours.tab);
    await ours.tab.context().close();
    return { switches: SWITCHES, modelViewer, element };
  } finally {
    await browser.close();
    await new Promise((resolve) => shop.close(resolve));
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

export function printOptionChange(figures: OptionChangeFigures) {
  const { modelViewer: anchor, element } = figures;
  console.log(
    `\noption change to the next drawn frame (demo stool, legs steel ↔ brass, ${figures.switches} switches after ` +
      `${WARM_UP} unmeasured, headless Chromium)\n`,
  );
  console.log('| path | median | p95 | applied (median) | rAF interval | ratio to model-viewer (goal ≤ 1.0x) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  console.log(
    `| model-viewer 4.4 \`variantName\` (anchor) | ${ms(anchor.median)} | ${ms(anchor.p95)} | ` +
      `${ms(anchor.appliedMedian)} | ${ms(anchor.frameInterval)} | – |`,
  );
  if (!element) {
    console.log(`| \`<config-share>\` \`setOption('legs', …)\` | ${figures.elementNote} | – | – | – | – |`);
    return;
  }
  console.log(
    `| \`<config-share>\` \`setOption('legs', …)\` | ${ms(element.median)} | ${ms(element.p95)} | ` +
      `${ms(element.appliedMedian)} | ${ms(element.frameInterval)} | ` +
      `${(element.median / anchor.median).toFixed(2)}x |`,
  );
  console.log(
    `\nswitches, ms: element ${element.samples.map((v) => v.toFixed(1)).join(', ')}; model-viewer ` +
      `${anchor.samples.map((v) => v.toFixed(1)).join(', ')}`,
  );
}
