import type { PublicProject } from '#core/wire/public-project.js';
import type { ConfigShareElement } from '../../element/config-share.js';
import { flushVisitorEvents } from '../../element/features/visitor-events.js';
import { assert, cleanUp, equal, eventBatchesOf, mount, part, projectOf, until, untilState } from './helpers.js';

/** The URLs the page fetches while a test runs (the element's reads, model files and visitor events all use fetch). */
const fetched: string[] = [];
const realFetch = window.fetch;

beforeEach(() => {
  fetched.length = 0;
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    fetched.push(new URL(input instanceof Request ? input.url : String(input), location.href).pathname);
    return realFetch(input, init);
  };
});

afterEach(() => {
  window.fetch = realFetch;
  cleanUp();
});

/** The stool payload as the public read answers it, for a fresh project of the fake BFF (read past the spy). */
async function stoolPayload(): Promise<PublicProject> {
  const projectId = projectOf('stool');
  const { project } = await (await realFetch(`/share/${projectId}/tok`)).json();
  return project;
}

/** A copy of the payload whose model file carries another signature (same file, new query string). */
function resigned(project: PublicProject, signature: string): PublicProject {
  const copy: PublicProject = structuredClone(project);
  for (const model of copy.data.models) model.url = `${model.url!.split('?')[0]}?sig=${signature}`;
  return copy;
}

/** Resolves at the element's next `config-share-rendered` (a payload, a configuration or a clip at rest drawn). */
const nextRendered = (element: ConfigShareElement) =>
  new Promise<void>((resolve) => element.addEventListener('config-share-rendered', () => resolve(), { once: true }));

/** A `<config-share>` showing `payload`, with no share attributes unless given. */
async function previewOf(payload: PublicProject, attributes: Record<string, string> = {}) {
  const element = mount({ locale: 'en-US', ...attributes });
  const rendered = nextRendered(element);
  element.preview = payload;
  await untilState(element, 'ready');
  await rendered;
  return element;
}

const radio = (element: HTMLElement, block: string, choice: string) =>
  element.shadowRoot!.querySelector<HTMLInputElement>(`input[name="option:${block}"][value="${choice}"]`);

describe('<config-share> preview', () => {
  it('renders a payload set by property without any request to the share routes', async () => {
    const payload = await stoolPayload();
    const element = await previewOf(payload);
    assert(element.previewing, 'previewing');
    assert(part(element, 'canvas'), 'the scene is drawn');
    await until(() => radio(element, 'seat', 'walnut'), 'the options panel');
    equal(
      fetched.filter((path) => path.startsWith('/share/')),
      [],
      'no read, model-urls, events or submit request',
    );
    equal(fetched.filter((path) => path === '/fake/model.glb').length, 1, 'the model file, once');
  });

  it('a new payload object keeps the selections still valid and drops a withdrawn one', async () => {
    const payload = await stoolPayload();
    const element = await previewOf(payload);
    equal(await element.setOption('seat', 'walnut'), true, 'walnut selected');
    equal(await element.setOption('legs', 'brass'), true, 'brass selected');

    const edited = resigned(payload, 'second');
    const seat = edited.data.sceneData.optionBlocks[0] as { choices: { id: string }[] };
    seat.choices = seat.choices.filter((choice) => choice.id !== 'walnut');
    const rendered = nextRendered(element);
    element.preview = edited;
    await until(() => !radio(element, 'seat', 'walnut') && radio(element, 'seat', 'oak'), 'the edit shown');
    await rendered;
    equal(
      element.getConfiguration()?.options,
      { seat: 'oak', legs: 'brass', backrest: 'off', cushion: 'none' },
      'brass kept, the withdrawn walnut back to the default oak',
    );
    assert(radio(element, 'legs', 'brass')!.checked, 'the panel still shows brass');
    equal(fetched.filter((path) => path === '/fake/model.glb').length, 1, 'the same file is not fetched again');
  });

  it('sends no visitor event, submit or saved link while previewing, even with events on', async () => {
    const payload = await stoolPayload();
    const element = await previewOf(payload, { 'project-id': payload.id, token: 'tok', events: 'on' });
    await until(() => radio(element, 'seat', 'walnut'), 'the options panel');
    radio(element, 'seat', 'walnut')!.click();
    equal(await element.setOption('legs', 'brass'), true, 'brass selected');
    assert(await element.screenshot(), 'a screenshot');

    const form = part(element, '[part="form"]')!;
    const button = part<HTMLButtonElement>(element, '[part="submit-button"]')!;
    assert(button.disabled, 'the submit button is disabled');
    assert(form.textContent!.includes('Preview: requests are not sent'), `the note: ${form.textContent}`);
    const note = [...form.querySelectorAll('p')].find((p) => p.textContent === 'Preview: requests are not sent');
    assert(note && note.getBoundingClientRect().height > 0, 'the note is visible');
    equal(await element.submit({ formData: { name: 'Ann', email: 'ann@example.com' } }), null, 'submit sends nothing');
    assert(part<HTMLButtonElement>(element, '[part="save-button"]')!.disabled, 'saving is disabled');

    flushVisitorEvents();
    equal(
      fetched.filter((path) => path.startsWith('/share/')),
      [],
      'no request to the share routes',
    );
    equal(await eventBatchesOf(element), [], 'the fake BFF received no visitor event');
  });

  it('getCameraView answers the view in data.camera units, kept across an edit', async () => {
    const payload = await stoolPayload();
    const element = await previewOf(payload);
    const view = element.getCameraView();
    assert(view, 'a view');
    const numbers = [view.position, view.target].flatMap(({ x, y, z }) => [x, y, z]);
    assert(numbers.every(Number.isFinite), `numbers: ${JSON.stringify(view)}`);
    // Framed (docs/scene-format.md): from the payload camera's side, at the distance that fits the cube.
    const side = ({ position: p, target: t }: typeof view) => {
      const [x, y, z] = [p.x - t.x, p.y - t.y, p.z - t.z];
      return [x, y, z].map((value) => (value / Math.hypot(x, y, z)).toFixed(4));
    };
    equal(side(view), side(payload.data.camera!), 'from the payload camera’s side');

    const canvas = part<HTMLCanvasElement>(element, 'canvas')!;
    canvas.focus();
    canvas.dispatchEvent(new KeyboardEvent('keydown', { code: 'ArrowUp', key: 'ArrowUp', bubbles: true }));
    await until(() => JSON.stringify(element.getCameraView()) !== JSON.stringify(view), 'the camera moved');
    const moved = element.getCameraView();
    const rendered = nextRendered(element);
    element.preview = resigned(payload, 'edit');
    await rendered;
    equal(element.getCameraView(), moved, 'an edit that keeps data.camera keeps the view the owner turned to');
    await until(() => element.shadowRoot!.querySelectorAll('canvas').length === 1, 'the replaced scene gone');
  });

  it('null goes back to reading the share', async () => {
    const payload = await stoolPayload();
    const element = await previewOf(payload, { 'project-id': payload.id, token: 'tok' });
    element.preview = null;
    await until(() => fetched.some((path) => path === `/share/${payload.id}/tok`), 'the share read');
    await untilState(element, 'ready');
    assert(!element.previewing, 'no longer previewing');
    await until(() => part(element, '[part="submit-button"]'), 'the form');
    assert(!part<HTMLButtonElement>(element, '[part="submit-button"]')!.disabled, 'the submit is enabled again');
  });
});
