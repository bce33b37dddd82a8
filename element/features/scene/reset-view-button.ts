/** The button's place and look, beside the element's other controls (its base `button` rule themes it). */
const STYLES = `[part='reset-view'] { position: absolute; right: 0.75rem; bottom: 0.75rem; border-color: #ccc;
  background: #fff; color: #222; }`;

let sheet: CSSStyleSheet | undefined;

/** Adds the button's rule to the shadow root the stage is in, once (a stage in a plain document is left alone). */
function adoptStyles(stage: HTMLElement) {
  const root = stage.getRootNode();
  if (!(root instanceof ShadowRoot) || typeof CSSStyleSheet === 'undefined') return;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLES);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

/** `part="reset-view"`: shown while the visitor's own view stands; a click fits the view again. */
export interface ResetViewButton {
  show(shown: boolean): void;
  dispose(): void;
}

/**
 * A native button over the view (so Tab reaches it, after the canvas). It leaves the DOM when hidden; if it had focus
 * then, focus goes to `fallbackFocus` (the canvas) rather than to the page.
 */
export function createResetViewButton(
  stage: HTMLElement,
  text: string,
  onClick: () => void,
  fallbackFocus: HTMLElement,
): ResetViewButton {
  adoptStyles(stage);
  const button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('part', 'reset-view');
  button.textContent = text;
  button.addEventListener('click', onClick);
  return {
    show(shown) {
      if (shown) {
        if (!button.isConnected) stage.append(button);
        return;
      }
      const focused = (stage.getRootNode() as Document | ShadowRoot).activeElement === button;
      button.remove();
      if (focused) fallbackFocus.focus({ preventScroll: true });
    },
    dispose() {
      button.remove();
    },
  };
}
