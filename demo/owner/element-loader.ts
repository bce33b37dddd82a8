/** Where the element bundle is: the BFF that serves this console serves it too. */
const ELEMENT_URL = new URL('/element/config-share.js', location.href).href;
let elementLoading: Promise<unknown> | null = null;

/** Loads the `<config-share>` element once for every panel that shows it (a failed load is tried again). */
export function loadElement(): Promise<unknown> {
  elementLoading ??= import(/* @vite-ignore */ ELEMENT_URL).catch((error: unknown) => {
    elementLoading = null;
    throw error;
  });
  return elementLoading;
}
