import type { LitElement } from 'lit';
import type { ShareTarget } from '../features/api.js';
import type { ConfigShareStrings } from '../features/strings.js';
import type { Viewer } from '../features/viewer.js';

/** What the configurator chunk needs from the element that loaded it (the loader stays small). */
export interface ConfiguratorHost {
  /** The element: its shadow root, `locale` attribute, updates and events; `previewing` while a preview is shown. */
  element: LitElement & { readonly previewing: boolean };
  /** The share shown (a preview's has no token: nothing is sent to it). */
  target: ShareTarget;
  /** The page's replacements for the element's texts (the configurator fills in its defaults). */
  strings(): Partial<ConfigShareStrings>;
  /** The scene as it is now, if one is being built (never starts one). */
  viewer(): Promise<Viewer | null> | undefined;
  /** Queues a visitor event (element/README.md, Decisions), unless the page switched events off. */
  track(type: string, data?: Record<string, unknown>): void;
}

/** Dispatches a bubbling, composed event from the element; answers false when the page cancelled it. */
export const emitFrom = (element: HTMLElement, type: string, detail: unknown, cancelable = false) =>
  element.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
