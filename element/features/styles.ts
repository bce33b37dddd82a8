import { css } from 'lit';

/**
 * The element's look, in its shadow root so it never touches the page's styles. No comments inside the CSS: the
 * template ships as written, in the loader's 15 KB.
 */
export const styles = css`
  :host {
    --_accent: var(--config-share-accent, #1f3a5f);
    --_on-accent: var(--config-share-accent-contrast, #fff);
    --_radius: var(--config-share-radius, 0.5rem);
    --_gap: var(--config-share-gap, 1rem);
    --_line: var(--config-share-border-color, color-mix(in srgb, currentColor 22%, transparent));
    --_field: var(--config-share-input-background, transparent);
    --_error: var(--config-share-error-color, #c62828);
    display: block;
    position: relative;
    box-sizing: border-box;
    min-height: 240px;
    overflow: auto;
    container: config-share / inline-size;
    font: inherit;
    color: inherit;
    line-height: 1.5;
  }
  :host([hidden]) { display: none; }
  *, *::before, *::after { box-sizing: border-box; }
  .layout { display: grid; grid-template-rows: auto minmax(0, 1fr); height: 100%; }
  [part='viewer'] {
    position: relative;
    overflow: hidden;
    width: 100%;
    aspect-ratio: var(--config-share-viewer-aspect, 4 / 3);
    height: var(--config-share-viewer-height, auto);
    max-height: var(--config-share-viewer-max-height, 60svh);
    background: var(--config-share-viewer-background, #fff);
    border-radius: var(--config-share-viewer-radius, 0);
  }
  .stage { position: absolute; inset: 0; }
  canvas { display: block; width: 100%; height: 100%; }
  .panel {
    display: grid;
    align-content: start;
    gap: var(--_gap);
    min-width: 0;
    padding: var(--config-share-panel-padding, 1rem);
    overflow: auto;
    overscroll-behavior: contain;
  }
  @container config-share (min-width: 720px) {
    .layout.with-panel {
      grid-template-columns: minmax(0, 1fr) min(var(--config-share-panel-width, 22rem), 45%);
      grid-template-rows: minmax(min(var(--config-share-min-height, 28rem), 100svh), 1fr);
    }
    .with-panel [part='viewer'] { align-self: stretch; max-height: var(--config-share-viewer-max-height, 100svh); }
    .panel { contain: size; border-inline-start: 1px solid var(--_line); }
  }
  model-viewer { position: absolute; top: 0; left: 0; width: 1px; height: 1px; opacity: 0; }
  model-viewer[ar-status='session-started'],
  model-viewer[ar-status='object-placed'] { width: 100%; height: 100%; opacity: 1; }
  progress { position: absolute; left: 1rem; bottom: 1rem; width: calc(100% - 2rem); accent-color: var(--_accent); }
  p { margin: 0; }
  [part='status'] { padding: var(--_gap); }
  .notice { font-size: 0.875em; opacity: 0.8; }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    padding: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  form { display: grid; gap: calc(var(--_gap) * 1.25); margin: 0; }
  fieldset { display: grid; gap: 0.75rem; min-width: 0; border: 0; padding: 0; margin: 0; }
  legend { padding: 0; margin-bottom: 0.5rem; font-weight: 600; }
  form > fieldset > legend { font-size: 1.125em; }
  .field { display: grid; gap: 0.375rem; }
  .field > label { font-size: 0.9375em; font-weight: 500; }
  .field.checkbox { grid-template-columns: auto 1fr; align-items: center; gap: 0.5rem; }
  .field.checkbox input { order: -1; }
  .field.checkbox .field-error { grid-column: 1 / -1; }
  input, select, textarea, button { font: inherit; color: inherit; margin: 0; }
  input[type='radio'], input[type='checkbox'] { width: 1.125rem; height: 1.125rem; accent-color: var(--_accent); }
  input:not([type='radio'], [type='checkbox']), select, textarea {
    width: 100%;
    min-height: 2.75rem;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--_line);
    border-radius: var(--_radius);
    background: var(--_field);
  }
  select option { background: Canvas; color: CanvasText; }
  textarea { min-height: 6rem; resize: vertical; }
  [aria-invalid='true'] { border-color: var(--_error) !important; }
  .field-error { color: var(--_error); font-size: 0.875em; }
  .field-error:empty { display: none; }
  .submit-status:empty { display: none; }
  button {
    min-height: 2.75rem;
    padding: 0.5rem 1.25rem;
    border: 1px solid var(--_accent);
    border-radius: var(--_radius);
    background: var(--_accent);
    color: var(--_on-accent);
    font-weight: 600;
    cursor: pointer;
    justify-self: start;
  }
  button:hover:not(:disabled) { filter: brightness(1.1); }
  button:disabled { opacity: 0.6; cursor: progress; }
  [part='submit-button'] { justify-self: stretch; }
  [part='ar'] { position: absolute; top: 0.75rem; right: 0.75rem; border-color: #ccc; background: #fff; color: #222; }
  :focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
  canvas:focus-visible { outline-offset: -2px; }
  :host([state='error']) button { margin: 0 var(--_gap) var(--_gap); }
`;
