import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import { assert, cleanUp, projectOf, until } from './helpers.js';

/**
 * The element's layout on a merchant's page, as the full-window share page and in the console's 800x600 iframe, at
 * a phone's, a small iframe's and a desktop's size; each case leaves a screenshot to be looked at.
 */

const SIZES = [
  { width: 390, height: 844 },
  { width: 800, height: 600 },
  { width: 1440, height: 900 },
];

/** The share page as the BFF serves it (bff/services/share-page.ts), with its own stylesheet. */
const sharePage = (projectId: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${location.origin}/bff/viewer/page.css">
<script type="module" src="${location.origin}/element/index.ts"></script></head>
<body><config-share project-id="${projectId}" token="tok"></config-share></body></html>`;

afterEach(() => {
  cleanUp();
  document.querySelectorAll('iframe').forEach((frame) => frame.remove());
});

/** Waits for the element in `win` to be ready with its scene drawn at its laid-out size. */
async function readyIn(win: Window): Promise<HTMLElement> {
  let element: HTMLElement | null = null;
  await until(
    () => (element = win.document.querySelector('config-share'))?.getAttribute('state') === 'ready',
    'the element ready',
    120_000,
  );
  const root = element!.shadowRoot!;
  await until(
    () => {
      const canvas = root.querySelector('canvas');
      const stage = root.querySelector<HTMLElement>('.stage');
      // Drawn (no progress bar) and sized to its stage: the layout has settled.
      return (
        canvas &&
        stage &&
        !root.querySelector('progress') &&
        Math.abs(canvas.clientWidth - stage.clientWidth) <= 1 &&
        Math.abs(canvas.clientHeight - stage.clientHeight) <= 1
      );
    },
    'the scene drawn at its size',
    120_000,
  );
  return element!;
}

const inView = (rect: DOMRect, win: Window) =>
  rect.width > 0 &&
  rect.height > 0 &&
  rect.top >= -0.5 &&
  rect.left >= -0.5 &&
  rect.bottom <= win.innerHeight + 0.5 &&
  rect.right <= win.innerWidth + 0.5;

const box = (rect: DOMRect) => JSON.stringify([rect.left, rect.top, rect.right, rect.bottom].map(Math.round));

/** Whether a click in the middle of `target` reaches it (nothing covers it), through shadow roots. */
function clickable(target: Element, doc: Document) {
  const rect = target.getBoundingClientRect();
  const [x, y] = [rect.left + rect.width / 2, rect.top + rect.height / 2];
  let hit = doc.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return !!hit && (hit === target || target.contains(hit));
}

/**
 * The canvas wholly in view, the first option and the submit button reachable, nothing wider than the window.
 * `fixed` (share page, iframe): the element has the window's height, so its panel scrolls and the page never does.
 */
async function checkLayout(win: Window, element: HTMLElement, fixed: boolean, name: string) {
  const doc = win.document;
  const root = element.shadowRoot!;
  const canvas = root.querySelector('canvas')!;
  const viewer = root.querySelector('[part="viewer"]')!.getBoundingClientRect();
  const panel = root.querySelector('.panel')!.getBoundingClientRect();
  assert(
    inView(canvas.getBoundingClientRect(), win),
    `${name}: canvas in view: ${box(canvas.getBoundingClientRect())}`,
  );
  // The panel sits beside the viewer from 720 px of the element's width, below it when narrower.
  if (element.clientWidth >= 720) assert(panel.left >= viewer.right - 0.5, `${name}: panel beside the viewer`);
  else assert(panel.top >= viewer.bottom - 0.5, `${name}: panel below the viewer`);
  await executeServerCommand('screenshot', { name });

  for (const [what, control] of [
    ['first option', root.querySelector('input[name^="option:"]')],
    ['submit button', root.querySelector('[part="submit-button"]')],
  ] as const) {
    assert(control, `${name}: ${what} rendered`);
    control.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const rect = control.getBoundingClientRect();
    assert(inView(rect, win), `${name}: ${what} in view once scrolled to: ${box(rect)}`);
    assert(clickable(control, doc), `${name}: ${what} is not covered`);
  }
  const page = doc.scrollingElement!;
  assert(page.scrollWidth <= win.innerWidth, `${name}: page ${page.scrollWidth} px wide in ${win.innerWidth}`);
  if (fixed) {
    assert(page.scrollHeight <= win.innerHeight && page.scrollTop === 0, `${name}: the page behind does not scroll`);
    assert(inView(canvas.getBoundingClientRect(), win), `${name}: canvas still in view after scrolling the panel`);
  }
}

/** An iframe in this page showing the share page; resolves with its window once loaded. */
async function frame(attributes: string, projectId: string): Promise<Window> {
  document.body.insertAdjacentHTML('beforeend', `<iframe ${attributes} title="3D configurator"></iframe>`);
  const iframe = document.querySelector('iframe')!;
  const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  iframe.srcdoc = sharePage(projectId);
  await loaded;
  return iframe.contentWindow!;
}

describe('<config-share> layout', () => {
  for (const size of SIZES) {
    const at = `${size.width}x${size.height}`;

    it(`on a merchant's page at ${at}`, async () => {
      await setViewport(size);
      const element = document.createElement('config-share');
      element.setAttribute('project-id', projectOf('plain'));
      element.setAttribute('token', 'tok');
      document.body.append(element);
      await readyIn(window);
      await checkLayout(window, element, false, `merchant-page-${at}`);
    });

    it(`as the share page filling the window at ${at}`, async () => {
      await setViewport(size);
      const win = await frame('style="position:fixed;inset:0;width:100%;height:100%;border:0"', projectOf('plain'));
      await checkLayout(win, await readyIn(win), true, `share-page-${at}`);
      const outer = document.scrollingElement!;
      assert(outer.scrollWidth <= innerWidth, `share-page-${at}: the outer page does not overflow`);
    });

    it(`in the console's 800x600 iframe snippet at ${at}`, async () => {
      await setViewport(size);
      const win = await frame('width="800" height="600" style="border:0;max-width:100%"', projectOf('plain'));
      await checkLayout(win, await readyIn(win), true, `iframe-snippet-${at}`);
      const outer = document.scrollingElement!;
      assert(outer.scrollWidth <= innerWidth, `iframe-snippet-${at}: the merchant's page does not overflow`);
    });
  }
});
