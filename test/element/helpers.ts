import '../../element/index.js';
import type { ConfigShareElement, ConfigShareState } from '../../element/config-share.js';
import type { ModelFile } from './model-files.js';

/** What the fake BFF (fake-bff.mjs) logged of one request. */
export interface LoggedRequest {
  method: string;
  action: '' | '/model-urls' | '/submit' | '/events' | '/configurations';
  status: number;
  ifNoneMatch: string | null;
  password: string | null;
  idempotencyKey: string | null;
  contentType: string | null;
  /** When the fake BFF received it (ms since the epoch). */
  receivedAt: number;
  body: any;
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

export function equal(actual: unknown, expected: unknown, message = 'values differ') {
  const [a, b] = [JSON.stringify(actual), JSON.stringify(expected)];
  if (a !== b) throw new Error(`${message}: expected ${b}, got ${a}`);
}

/** Polls until `condition` holds (WebGL under SwiftShader takes seconds). */
export async function until(condition: () => unknown, what: string, timeout = 60_000) {
  const end = Date.now() + timeout;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A project id of the fake BFF: the scenario (its models signed as `file`), then something unique to this test. */
export const projectOf = (scenario: string, file: ModelFile = 'original') =>
  `${scenario}${file === 'delivery' ? '.delivery' : ''}-${Math.random().toString(36).slice(2)}`;

/** Adds `<config-share>` with these attributes to the page. */
export function mount(attributes: Record<string, string>): ConfigShareElement {
  const element = document.createElement('config-share');
  element.style.cssText = 'display:block;width:320px';
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  document.body.append(element);
  return element;
}

/** A share of the fake BFF, mounted: `token` is its valid token. */
export const mountShare = (scenario: string, file: ModelFile = 'original') =>
  mount({ 'project-id': projectOf(scenario, file), token: 'tok' });

export const untilState = (element: ConfigShareElement, state: ConfigShareState) =>
  until(() => element.getAttribute('state') === state, `state ${state} (is ${element.getAttribute('state')})`);

export const part = <T extends Element = HTMLElement>(element: ConfigShareElement, selector: string) =>
  element.shadowRoot!.querySelector<T>(selector);

const loggedOf = async (element: ConfigShareElement): Promise<LoggedRequest[]> =>
  (await fetch(`/fake/log?project=${encodeURIComponent(element.projectId)}`)).json();

/** The share's reads, model-urls and submits the fake BFF logged (visitor-event batches: {@link eventBatchesOf}). */
export async function requestsOf(element: ConfigShareElement): Promise<LoggedRequest[]> {
  return (await loggedOf(element)).filter((request) => request.action !== '/events');
}

/** Collects the events of these types that reach the document (so: bubbling and composed). */
export function recordEvents(...types: string[]) {
  const seen: CustomEvent[] = [];
  const listener = (event: Event) => seen.push(event as CustomEvent);
  for (const type of types) document.addEventListener(type, listener);
  return { seen, stop: () => types.forEach((type) => document.removeEventListener(type, listener)) };
}

/** Removes every element a test mounted. */
export function cleanUp() {
  document.querySelectorAll('config-share').forEach((element) => element.remove());
}

/** A visitor event as the fake BFF received it. */
export interface ReceivedEvent {
  type: string;
  at: string;
  data: Record<string, any>;
}

/** The visitor-event batches the fake BFF received for this element's project, in order. */
export async function eventBatchesOf(element: ConfigShareElement): Promise<LoggedRequest[]> {
  return (await loggedOf(element)).filter((request) => request.action === '/events');
}

/** Every visitor event the fake BFF received for this element's project, in order. */
export async function eventsOf(element: ConfigShareElement): Promise<ReceivedEvent[]> {
  return (await eventBatchesOf(element)).flatMap((batch) => batch.body?.events ?? []);
}
