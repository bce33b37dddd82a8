import { css } from 'lit';

/** The console's few shared rules: plain, readable, visible focus. */
export const panelStyles = css`
  :host { display: block; }
  h2, h3 { margin: 1rem 0 0.5rem; }
  label { display: block; margin: 0.5rem 0 0.2rem; font-weight: 600; }
  label.inline { display: inline-flex; gap: 0.4rem; align-items: center; font-weight: normal; margin-right: 1rem; }
  input[type='text'], input[type='url'], input[type='password'], input[type='search'], input[type='number'],
  select, textarea {
    font: inherit; padding: 0.35rem 0.5rem; border: 1px solid #888; border-radius: 4px;
    min-width: 16rem; max-width: 100%; box-sizing: border-box;
  }
  textarea { width: 100%; min-height: 4rem; font-family: ui-monospace, monospace; font-size: 0.85rem; }
  button {
    font: inherit; padding: 0.35rem 0.8rem; border: 1px solid #335; border-radius: 4px; background: #eef;
    cursor: pointer; margin: 0.2rem 0.3rem 0.2rem 0;
  }
  button.primary { background: #224; color: #fff; }
  button.danger { border-color: #a00; color: #a00; background: #fff5f5; }
  button:disabled { opacity: 0.5; cursor: default; }
  :focus-visible { outline: 3px solid #f90; outline-offset: 2px; }
  table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
  th, td { text-align: left; border-bottom: 1px solid #ddd; padding: 0.3rem 0.4rem; vertical-align: top; }
  code, pre { font-family: ui-monospace, monospace; font-size: 0.85rem; }
  pre {
    white-space: pre-wrap; word-break: break-all; background: #f6f6f6; padding: 0.4rem; margin: 0.2rem 0;
    max-height: 12rem; overflow: auto;
  }
  .row { display: flex; gap: 1rem; flex-wrap: wrap; align-items: flex-end; }
  .muted { color: #555; }
  .ok { color: #070; }
  .bad { color: #a00; }
  .card { border: 1px solid #ccc; border-radius: 6px; padding: 0.6rem 0.8rem; margin: 0.6rem 0; }
  .badge { display: inline-block; padding: 0 0.4rem; border-radius: 3px; background: #eee; font-size: 0.85rem; }
  fieldset { border: 1px solid #ccc; border-radius: 6px; margin: 0.6rem 0; }
  dialog { border: 2px solid #224; border-radius: 6px; max-width: 30rem; }
  progress { width: 20rem; height: 1.2rem; }
`;

/** Announces a status message through the console's live region (see owner-console.ts). */
export function announce(from: HTMLElement, message: string, kind: 'info' | 'error' = 'info') {
  from.dispatchEvent(new CustomEvent('console-status', { detail: { message, kind }, bubbles: true, composed: true }));
}

export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
