import { writeFile } from 'node:fs/promises';
import { benchOwnerCall } from './bench-owner-call.js';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { demoStoolGlb } from '../../scripts/start/demo-model.js';
import { demoProjectData } from '../../scripts/start/demo-data.js';
import { launchSystemChromium } from '../helpers/system-chromium.js';

/**
 * The console's preview round trip: a price typed into the Options panel to the live preview's frame that shows it
 * (debounce, POST /projects/:id/preview, the element's rebuild, its draw), on the demo stool and at the limits of
 * the option blocks (100 blocks, 2,000 choices). The anchor: the same preview POST from Node, bare, in the same run.
 */
export interface PreviewRoundTripFigures {
  edits: number;
  projects: ProjectFigures[];
}

interface ProjectFigures {
  name: string;
  goalMs: number;
  /** The preview request's body, bytes. */
  requestBytes: number;
  shown: number[];
  /** POST /projects/:id/preview of the same draft from Node, ms. */
  anchor: number[];
  /** Medians of each phase, ms: edit to request sent, request, answer to first draw call, first draw to drawn. */
  phases: Record<Phase, number>;
}

type Phase = 'debounce' | 'request' | 'build' | 'draw' | 'present';

/** Edits per project (BENCH_PREVIEW_EDITS, default 30), after three unmeasured ones. */
const EDITS = Math.max(2, Number(process.env.BENCH_PREVIEW_EDITS ?? 30));
const WARM_UP = 3;
/** Edits before the anchor takes its turn, so both see the same load on the machine. */
const BLOCK = 5;
/** BENCH_PROFILE_DIR: a CPU profile of one more edit in each console page is written there (chrome://inspect). */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];
const p95 = (values: number[]) => sorted(values)[Math.max(0, Math.ceil(values.length * 0.95) - 1)];

/**
 * Before the console's own scripts: the preview request's times (sent, answer read) and every WebGL draw call's,
 * so one edit's time splits into its phases.
 */
const STAMPS = `(() => {
  window.previewStamps = [];
  window.drawStamps = [];
  const send = window.fetch;
  window.fetch = async function (input, init) {
    const url = typeof input === 'string' ? input : input.url;
    if (!/\\/preview$/.test(url)) return send.call(this, input, init);
    const stamp = { sent: performance.now() };
    window.previewStamps.push(stamp);
    const res = await send.call(this, input, init);
    const text = res.text.bind(res);
    res.text = async () => {
      const body = await text();
      stamp.read = performance.now();
      return body;
    };
    return res;
  };
  const draws = ['drawElements', 'drawArrays', 'drawElementsInstanced', 'drawArraysInstanced', 'drawRangeElements'];
  for (const proto of [WebGLRenderingContext.prototype, WebGL2RenderingContext.prototype])
    for (const name of draws) {
      const draw = proto[name];
      if (draw)
        proto[name] = function (...args) {
          const stamps = window.drawStamps;
          if (stamps.length === 0 || performance.now() - stamps[stamps.length - 1] > 1) stamps.push(performance.now());
          return draw.apply(this, args);
        };
    }
})();`;

/**
 * In the console page: `editToFrame({ choice, price })` sets the choice's Price input and commits it (its change event,
 * as the owner's typing does), then waits for the live preview's config-share-rendered of a payload holding it.
 */
const EDIT_TO_FRAME = `(() => {
  const deep = (root, selector) => {
    const found = [...root.querySelectorAll(selector)];
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) found.push(...deep(el.shadowRoot, selector));
    return found;
  };
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  window.editToFrame = async ({ choice, price }) => {
    const details = deep(document, 'details[aria-label="Choice ' + choice + '"]')[0];
    // A closed choice card renders its fields once opened, as the owner opens it to type.
    if (details && !details.open) details.open = true;
    const priceLabel = () =>
      [...(details?.querySelectorAll('label') ?? [])].find((l) => l.textContent.trim().startsWith('Price'));
    for (let i = 0; i < 100 && details && !priceLabel(); i++) await frame();
    const label = priceLabel();
    const input = label?.querySelector('input');
    const preview = deep(document, 'config-share#live-preview')[0];
    if (!input || !preview) throw new Error('no Price input of choice ' + choice + ', or no live preview');
    await frame();
    const holdsEdit = () => JSON.stringify(preview.preview ?? null).includes('"price":' + price);
    const drawn = new Promise((resolve, reject) => {
      const timeout = setTimeout(() => reject(new Error('the edit was not drawn within 30 s')), 30000);
      const onRendered = () => {
        if (!holdsEdit()) return;
        clearTimeout(timeout);
        preview.removeEventListener('config-share-rendered', onRendered);
        resolve(performance.now());
      };
      preview.addEventListener('config-share-rendered', onRendered);
    });
    const t0 = performance.now();
    input.value = String(price);
    input.dispatchEvent(new Event('change', { bubbles: true }));
    const drawnAt = await drawn;
    // Drawn inside this task: the next frame presents it.
    const shownAt = await new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
    const request = window.previewStamps.filter((s) => s.sent >= t0).pop();
    const read = request?.read ?? drawnAt;
    const firstDraw = window.drawStamps.find((s) => s >= read) ?? drawnAt;
    return {
      shown: shownAt - t0,
      debounce: (request?.sent ?? read) - t0,
      request: read - (request?.sent ?? read),
      build: firstDraw - read,
      draw: drawnAt - firstDraw,
      present: shownAt - drawnAt,
    };
  };
})();`;

type EditTiming = Record<Phase | 'shown', number>;

/** The limits of the option blocks: 100 blocks of 20 choices, each with a price and a colour on the stool's seat. */
function limitsData(model: { id: string; fileName: string; assetId: string }) {
  const data = demoProjectData(model);
  const nodes = ['Seat', 'Backrest', 'Leg_1', 'Leg_2'];
  const optionBlocks = Array.from({ length: 100 }, (_, b) => ({
    id: `block-${b + 1}`,
    name: `Block ${b + 1}`,
    type: b % 2 === 0 ? 'swatch' : 'choice',
    targetObjectId: model.id,
    choices: Array.from({ length: 20 }, (_, c) => {
      const color = `#${((b * 20 + c) * 2_654_435 + 0x203040).toString(16).slice(-6).padStart(6, '0')}`;
      return {
        id: `b${b + 1}-c${c + 1}`,
        label: `B${b + 1} choice ${c + 1}`,
        ...(c === 0 ? { default: true } : {}),
        price: c * 5,
        color,
        effects: [{ type: 'material', nodes: [nodes[b % nodes.length]], color }],
      };
    }),
  }));
  return { ...data, sceneData: { ...data.sceneData, optionBlocks } };
}

export async function measurePreviewRoundTrip(options: {
  apiUrl: string;
  bffUrl: string;
  ownerHeaders: Record<string, string>;
}): Promise<PreviewRoundTripFigures> {
  const { apiUrl, bffUrl, ownerHeaders } = options;
  const owner = benchOwnerCall(apiUrl, ownerHeaders);
  // The stool uploaded as an asset: the editor reads its outline, the preview signs its URL.
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(await demoStoolGlb())], { type: 'model/gltf-binary' }), 'stool.glb');
  const { asset } = await owner('POST', '/assets', form);
  const model = { id: 'stool', fileName: asset.fileName, assetId: asset.id };
  const cases = [
    { name: 'demo stool', data: demoProjectData(model), choice: 'Walnut', goalMs: 500 },
    { name: 'limits: 100 blocks, 2,000 choices', data: limitsData(model), choice: 'B1 choice 2', goalMs: 1500 },
  ];
  const token = ownerHeaders.authorization.replace(/^Bearer /, '');
  const browser: Browser = await launchSystemChromium();
  const projects: ProjectFigures[] = [];
  try {
    for (const [index, each] of cases.entries()) {
      const name = `preview bench ${index + 1}`;
      const { project } = await owner('POST', '/projects', { name, type: 'configurator', data: each.data });
      const page: Page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.addInitScript(STAMPS + EDIT_TO_FRAME);
      await page.goto(`${bffUrl}/demo/owner/#token=${token}`);
      await page.locator('#status').filter({ hasText: 'Signed in as' }).waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name, exact: true }).click();
      await page.getByRole('button', { name: 'Options', exact: true }).click();
      await page.locator('config-share#live-preview[state="ready"]').waitFor({ timeout: 120_000 });
      await page.waitForFunction(() => (globalThis as unknown as { drawStamps: number[] }).drawStamps.length > 0);

      const draft = JSON.parse(JSON.stringify(each.data)) as ReturnType<typeof demoProjectData>;
      const anchorChoice = (draft.sceneData.optionBlocks as Array<{ choices: Array<Record<string, unknown>> }>)
        .flatMap((block) => block.choices)
        .find((choice) => choice.label === each.choice)!;
      const body = (price: number) => ((anchorChoice.price = price), JSON.stringify({ data: draft }));
      const shown: number[] = [];
      const anchor: number[] = [];
      const phases: Record<Phase, number[]> = { debounce: [], request: [], build: [], draw: [], present: [] };
      let price = 1000;
      for (let done = -WARM_UP; done < EDITS;) {
        const count = done < 0 ? WARM_UP : Math.min(BLOCK, EDITS - done);
        for (let i = 0; i < count; i++) {
          const args = JSON.stringify({ choice: each.choice, price: ++price });
          const timing = (await page.evaluate(`window.editToFrame(${args})`)) as EditTiming;
          if (done < 0) continue;
          shown.push(timing.shown);
          for (const phase of Object.keys(phases) as Phase[]) phases[phase].push(timing[phase]);
        }
        for (let i = 0; i < count; i++) {
          const payload = body(++price);
          const t0 = performance.now();
          const res = await fetch(`${apiUrl}/projects/${project.id}/preview`, {
            method: 'POST',
            headers: ownerHeaders,
            body: payload,
          });
          await res.text();
          if (!res.ok) throw new Error(`the anchor's preview POST answered ${res.status}`);
          if (done >= 0) anchor.push(performance.now() - t0);
        }
        done += count;
      }
      if (PROFILE_DIR) {
        // One more edit under the CPU profiler: where the page's main thread spends the round trip.
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.start');
        await page.evaluate(`window.editToFrame(${JSON.stringify({ choice: each.choice, price: ++price })})`);
        const { profile } = await cdp.send('Profiler.stop');
        await writeFile(path.join(PROFILE_DIR, `preview-${index + 1}.cpuprofile`), JSON.stringify(profile));
      }
      await page.close();
      projects.push({
        name: each.name,
        goalMs: each.goalMs,
        requestBytes: Buffer.byteLength(body(price)),
        shown,
        anchor,
        phases: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, median(v)])) as Record<Phase, number>,
      });
    }
  } finally {
    await browser.close();
  }
  return { edits: EDITS, projects };
}

const ms = (value: number) => `${Math.round(value)} ms`;

export function printPreviewRoundTrip(figures: PreviewRoundTripFigures) {
  console.log(
    `\nconsole preview round trip: a choice's Price typed in the Options panel (its input's change event) to the ` +
      `frame that shows it in the live preview, ${figures.edits} edits after ${WARM_UP} unmeasured, headless ` +
      'Chromium; anchor: the same draft POSTed to /projects/:id/preview from Node (request and answer only), ' +
      'alternating blocks of 5 in the same run\n',
  );
  console.log(
    '| project | preview body | shown (median) | shown (p95) | goal | anchor: bare POST (median / p95) | ratio |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const p of figures.projects) {
    const within = median(p.shown) < p.goalMs;
    console.log(
      `| ${p.name} | ${(p.requestBytes / 1024).toFixed(0)} KB | ${ms(median(p.shown))} | ${ms(p95(p.shown))} | ` +
        `< ${ms(p.goalMs)}${within ? '' : ' (missed)'} | ${ms(median(p.anchor))} / ${ms(p95(p.anchor))} | ` +
        `${(median(p.shown) / median(p.anchor)).toFixed(1)}x |`,
    );
  }
  console.log(
    '\nwhere the time goes (medians): edit to request sent (debounce 120 ms, panels) | request to answer read |',
  );
  console.log('answer to first draw call (element rebuild) | first draw to drawn | drawn to the next frame');
  for (const p of figures.projects) {
    const { debounce, request, build, draw, present } = p.phases;
    console.log(
      `- ${p.name}: ${ms(debounce)} | ${ms(request)} | ${ms(build)} | ${ms(draw)} | ${ms(present)}; shown, ms: ` +
        p.shown.map(Math.round).join(', '),
    );
  }
}
