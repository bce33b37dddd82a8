import { demoStoolGlb } from '../../scripts/start/demo-model.js';
import { benchOwnerCall } from './bench-owner-call.js';
import { demoProjectData } from '../../scripts/start/demo-data.js';
import { openShopBrowser } from './shop-browser.js';
import type { CDPSession, Page } from 'playwright-core';

/**
 * Option change to its shown frame (docs/commands.md, Benchmarks): our `setOption` next to model-viewer's `variantName`
 * (the anchor) on one GLB and canvas, timed by the same draw-call stamps; model-viewer's render scale pinned at 1, no
 * fewer pixels.
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
  /** t0 to the start of the frame after the one that drew the change, ms. */
  median: number;
  p95: number;
  /** t0 to the change applied (model-viewer's `variant-applied`, the element's change event), ms. */
  appliedMedian: number;
  /** t0 to the first draw call, ms. */
  drawMedian: number;
  /** How often the draw fell in t0's own frame (0), the next (1) or later (2+). */
  drawFrames: Record<string, number>;
  /** The page's animation-frame interval, median of 60, ms. */
  frameInterval: number;
  samples: number[];
}

/** Switches of each kind (BENCH_OPTION_SWITCHES, default 50), after two unmeasured ones. */
const SWITCHES = Math.max(2, Number(process.env.BENCH_OPTION_SWITCHES ?? 50));
const WARM_UP = 2;
/** Switches per page before the other page takes its turn. */
const BLOCK = 5;

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];
const p95 = (values: number[]) => sorted(values)[Math.max(0, Math.ceil(values.length * 0.95) - 1)];

/** First in each page: every WebGL draw call reports to `window.onDraw` (both viewers draw with WebGL 2). */
const DRAW_STAMP = `<script>
  const draws = ['drawElements', 'drawArrays', 'drawElementsInstanced', 'drawArraysInstanced', 'drawRangeElements'];
  for (const proto of [WebGLRenderingContext.prototype, WebGL2RenderingContext.prototype])
    for (const name of draws) {
      const draw = proto[name];
      if (draw) proto[name] = function (...args) { window.onDraw?.(performance.now()); return draw.apply(this, args); };
    }
</script>`;

/** What each page runs in the browser once its model is drawn; `switchTo` applies one choice. */
const MEASURE = `
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  window.frameInterval = async () => {
    const stamps = [];
    for (let i = 0; i < 61; i++) stamps.push(await frame());
    const deltas = stamps.slice(1).map((t, i) => t - stamps[i]).sort((a, b) => a - b);
    return deltas[Math.floor(deltas.length / 2)];
  };
  // The first draw call from now: when it ran, and the start of the next animation frame after it
  // (a draw inside a frame's callbacks is presented with that frame, so the next one follows it).
  const nextDraw = () => new Promise((resolve, reject) => {
    const timeout = setTimeout(() => ((window.onDraw = null), reject(new Error('nothing drawn within 2 s'))), 2000);
    window.onDraw = (drawAt) => {
      window.onDraw = null;
      clearTimeout(timeout);
      requestAnimationFrame((frameTime) => resolve({ drawAt, shownAt: performance.now(), frameTime }));
    };
  });
  window.measureSwitches = async (count, warmUp, switchTo, start) => {
    const shown = [], drawn = [], applied = [], frames = [];
    for (let i = 0; i < count + warmUp; i++) {
      const choice = (start + i) % 2 === 0 ? 'brass' : 'steel';
      await frame();
      const t0 = performance.now();
      // Each frame after t0's, by its timestamp, until the one that shows the change.
      const stamps = [];
      let counting = true;
      const count = (stamp) => (stamps.push(stamp), counting && requestAnimationFrame(count));
      requestAnimationFrame(count);
      const draw = nextDraw();
      await switchTo(choice);
      const t = performance.now();
      const { drawAt, shownAt, frameTime: shownFrame } = await draw;
      counting = false;
      if (i < warmUp) continue;
      shown.push(shownAt - t0);
      drawn.push(drawAt - t0);
      applied.push(t - t0);
      // 0: shown by the frame after t0's, so drawn in t0's own frame; 1: drawn in the next one.
      // The chain may not have reached the showing frame yet: then it is the one after its last.
      const index = stamps.indexOf(shownFrame);
      frames.push(index >= 0 ? index : stamps.length);
    }
    return { shown, drawn, applied, frames };
  };
`;

export async function measureOptionChange(options: {
  apiUrl: string;
  bffUrl: string;
  ownerHeaders: Record<string, string>;
}): Promise<OptionChangeFigures> {
  const { apiUrl, bffUrl, ownerHeaders } = options;
  const owner = benchOwnerCall(apiUrl, ownerHeaders);
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

  const pages: Record<string, string> = {
    '/model-viewer.html': `<!doctype html>${DRAW_STAMP}<script type="module" src="/model-viewer.min.js"></script>
      <model-viewer src="${glbUrl}" style="display:block;width:400px;height:400px" loading="eager"></model-viewer>
      <script>${MEASURE}</script>
      <script type="module">
        const viewer = document.querySelector('model-viewer');
        // Full resolution always: its default lets slow frames draw at down to half the pixels.
        customElements.get('model-viewer').minimumRenderScale = 1;
        viewer.addEventListener('load', () => (window.ready = true));
        // variantName set, then its variant-applied (fired before model-viewer's next frame draws it).
        window.switchTo = (name) => new Promise((resolve) => {
          viewer.addEventListener('variant-applied', resolve, { once: true });
          viewer.variantName = name;
        });
      </script>`,
    '/element.html': `<!doctype html>${DRAW_STAMP}
      <script type="module" src="${bffUrl}/element/config-share.js"></script>
      <config-share project-id="${project.id}" token="${settings.shareToken}"
        style="display:block;width:400px;height:400px"></config-share>
      <script>${MEASURE}</script>
      <script type="module">
        const el = document.querySelector('config-share');
        // Ready: the state attribute, a drawn canvas and the configurator answering (element/README.md, API).
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
  const shop = await openShopBrowser(pages);
  const open = async (page: string): Promise<{ tab: Page; ready: unknown }> => {
    const tab = await (await shop.browser.newContext()).newPage();
    await tab.goto(shop.url(page));
    const ready = await tab
      .waitForFunction(() => (globalThis as { ready?: unknown }).ready, undefined, { timeout: 120_000, polling: 50 })
      .then((handle) => handle.jsonValue());
    return { tab, ready };
  };
  /** One page under measure: its tab, what it has measured so far, and the next choice's index. */
  interface Side {
    tab: Page;
    cdp: CDPSession;
    frameInterval: number;
    next: number;
    shown: number[];
    drawn: number[];
    applied: number[];
    frames: number[];
  }
  const side = async (tab: Page): Promise<Side> => ({
    tab,
    cdp: await tab.context().newCDPSession(tab),
    frameInterval: (await tab.evaluate('window.frameInterval()')) as number,
    next: 0,
    ...{ shown: [], drawn: [], applied: [], frames: [] },
  });
  /** A block of switches on one page while the other is frozen (no frames, no tasks), then the next block. */
  const measureBlock = async (page: Side, others: Side[], count: number, warmUp: number) => {
    for (const other of others) await other.cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
    await page.cdp.send('Page.setWebLifecycleState', { state: 'active' });
    const block = (await page.tab.evaluate(
      `window.measureSwitches(${count}, ${warmUp}, window.switchTo, ${page.next})`,
    )) as { shown: number[]; drawn: number[]; applied: number[]; frames: number[] };
    page.next += count + warmUp;
    page.shown.push(...block.shown);
    page.drawn.push(...block.drawn);
    page.applied.push(...block.applied);
    page.frames.push(...block.frames);
  };
  const timings = (page: Side): Timings => {
    const drawFrames: Record<string, number> = {};
    for (const count of page.frames) {
      const key = count >= 2 ? '2+' : String(count);
      drawFrames[key] = (drawFrames[key] ?? 0) + 1;
    }
    return {
      median: median(page.shown),
      p95: p95(page.shown),
      appliedMedian: median(page.applied),
      drawMedian: median(page.drawn),
      drawFrames,
      frameInterval: page.frameInterval,
      samples: page.shown,
    };
  };
  try {
    // Both pages open at once and measured in alternating blocks, so both see the same load on the machine.
    const anchorPage = await open('/model-viewer.html');
    const ours = await open('/element.html');
    const anchor = await side(anchorPage.tab);
    if (ours.ready === 'no-api') {
      await measureBlock(anchor, [], SWITCHES, WARM_UP);
      return {
        switches: SWITCHES,
        modelViewer: timings(anchor),
        element: null,
        elementNote: 'not available: the element has no setOption',
      };
    }
    const element = await side(ours.tab);
    for (let done = 0; done < SWITCHES; done += BLOCK) {
      const count = Math.min(BLOCK, SWITCHES - done);
      const warmUp = done === 0 ? WARM_UP : 0;
      await measureBlock(anchor, [element], count, warmUp);
      await measureBlock(element, [anchor], count, warmUp);
    }
    return { switches: SWITCHES, modelViewer: timings(anchor), element: timings(element) };
  } finally {
    await shop.close();
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

const framesOf = (timings: Timings) => ['0', '1', '2+'].map((key) => `${timings.drawFrames[key] ?? 0}`).join(' / ');

const row = (name: string, timings: Timings, ratio: string) =>
  `| ${name} | ${ms(timings.median)} | ${ms(timings.p95)} | ${ms(timings.appliedMedian)} | ` +
  `${ms(timings.drawMedian)} | ${framesOf(timings)} | ${ms(timings.frameInterval)} | ${ratio} |`;

export function printOptionChange(figures: OptionChangeFigures) {
  const { modelViewer: anchor, element } = figures;
  console.log(
    `\noption change to the frame that shows it (demo stool, legs steel ↔ brass, ${figures.switches} switches ` +
      `after ${WARM_UP} unmeasured, headless Chromium; shown: t0 to the start of the frame after the one that ` +
      `drew the change)\n`,
  );
  console.log(
    '| path | shown (median) | shown (p95) | applied (median) | first draw (median) | ' +
      "draw in t0's frame / next / later | rAF interval | ratio to model-viewer (goal ≤ 1.0x) |",
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  console.log(row('model-viewer 4.4 `variantName` (anchor)', anchor, '–'));
  if (!element) {
    console.log(`| \`<config-share>\` \`setOption('legs', …)\` | ${figures.elementNote} | – | – | – | – | – | – |`);
    return;
  }
  const ratio = `${(element.median / anchor.median).toFixed(2)}x (p95 ${(element.p95 / anchor.p95).toFixed(2)}x)`;
  console.log(row("`<config-share>` `setOption('legs', …)`", element, ratio));
  console.log(
    `\nswitches, ms: element ${element.samples.map((v) => v.toFixed(1)).join(', ')}; model-viewer ` +
      `${anchor.samples.map((v) => v.toFixed(1)).join(', ')}`,
  );
}
