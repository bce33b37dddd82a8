import { css } from 'lit';

/** The editor's layout: sections on the left, the panel in the middle, the sticky preview on the right. */
export const editorStyles = css`
  .topbar {
    position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 0.6rem; align-items: center;
    background: #fff; border-bottom: 1px solid #ccd; padding: 0.5rem 0;
  }
  .topbar .spacer { flex: 1; }
  .name-field input {
    font-size: 1.25rem; font-weight: 600; border: 1px solid transparent; min-width: 14rem; padding: 0.2rem 0.4rem;
  }
  .name-field input:hover, .name-field input:focus { border-color: #888; }
  .save-state { font-size: 0.9rem; padding: 0.1rem 0.5rem; border-radius: 999px; }
  .save-state.dirty { background: #fff4d6; color: #7a4b00; }
  .save-state.dirty::before { content: '● '; }
  .save-state.clean { color: #2a6b2a; }
  .visually-hidden {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
  }
  .editor {
    display: grid; grid-template-columns: 11rem minmax(0, 1fr) minmax(20rem, 38%); gap: 1.25rem;
    align-items: start; margin-top: 0.75rem;
  }
  .sections ul { list-style: none; padding: 0; margin: 0 0 0.75rem; }
  .sections h3.group {
    font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.06em; color: #667; margin: 0.5rem 0 0.3rem;
  }
  .sections button {
    display: flex; justify-content: space-between; width: 100%; text-align: left; background: transparent;
    border: 1px solid transparent; margin: 0.05rem 0; padding: 0.4rem 0.6rem;
  }
  .sections button:hover { background: #eef; }
  .sections button[aria-current='page'] { background: #224; color: #fff; }
  .count { background: #b45f00; color: #fff; border-radius: 999px; padding: 0 0.45rem; font-size: 0.8rem; }
  /* A wide table (a delivery log) scrolls inside the panel instead of running under the preview. */
  .panel { min-width: 0; overflow-x: auto; }
  .panel h2 { margin-top: 0.2rem; }
  .preview { position: sticky; top: 4rem; }
  /* The preview scrolls within the window, so its options and price stay reachable beside a long panel. */
  .preview-frame {
    min-height: 16rem; max-height: calc(100vh - 6rem); border: 1px solid #ccd; border-radius: 8px; overflow: auto;
    background: linear-gradient(#fafbff, #eef0f6);
  }
  .preview-frame config-share { display: block; --config-share-viewer-height: min(24rem, 45vh); }
  .note { font-size: 0.9rem; }
  .placeholder { display: grid; place-items: center; height: 100%; margin: 0; padding: 1rem; text-align: center; }
  .warnings { margin-top: 0.6rem; font-size: 0.9rem; max-height: 14rem; overflow: auto; }
  .warnings summary { cursor: pointer; color: #7a4b00; font-weight: 600; }
  .warnings ul { padding-left: 1.1rem; margin: 0.3rem 0; }
  @media (max-width: 64rem) {
    .editor { grid-template-columns: 10rem minmax(0, 1fr); }
    .preview { grid-column: 1 / -1; position: static; }
  }
  @media (max-width: 40rem) {
    .editor { grid-template-columns: 1fr; }
    .sections ul { display: flex; flex-wrap: wrap; gap: 0.2rem; }
    .sections button { width: auto; }
    .preview-frame { max-height: none; }
  }
`;
