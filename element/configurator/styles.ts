import { css, unsafeCSS, type LitElement } from 'lit';
import type { Scene } from '#core/wire/configurator/index.js';
import type { PublicProject } from '#core/wire/public-project.js';

/** The configurator's own look, added to the element's shadow root when the chunk arrives (not in the loader). */
const panelStyles = css`
  [part='options'] { display: grid; gap: var(--_gap); }
  [part='option-block'] { display: flex; flex-wrap: wrap; gap: 0.5rem; }
  [part='option-block'] > legend { font-size: 0.9375em; margin-bottom: 0.375rem; }
  [part='choice'] {
    position: relative;
    display: inline-flex;
    align-items: center;
    gap: 0.5rem;
    padding: 0.5rem 0.875rem;
    border: 1px solid var(--_line);
    border-radius: var(--_radius);
    cursor: pointer;
  }
  [part='choice']:has(:checked) { border-color: var(--_accent); box-shadow: inset 0 0 0 1px var(--_accent); }
  [part='choice']:has(:disabled) { opacity: 0.55; cursor: not-allowed; }
  [part='choice'] input:focus-visible { outline: 0; }
  [part='choice']:has(:focus-visible) { outline: 2px solid var(--_accent); outline-offset: 2px; }
  .swatch[part='option-block'] { display: grid; grid-template-columns: repeat(auto-fill, minmax(5.5rem, 1fr)); }
  .swatch [part='choice'] {
    flex-direction: column;
    justify-content: start;
    gap: 0.25rem;
    padding: 0.5rem 0.25rem;
    line-height: 1.25;
    text-align: center;
    overflow-wrap: break-word;
    hyphens: auto;
  }
  .swatch .text { max-width: 100%; font-size: 0.9375em; }
  .swatch .delta { margin-top: auto; }
  .swatch .has-face input { position: absolute; opacity: 0; pointer-events: none; }
  .swatch [part='choice']:not(.has-face) input { margin: 0.6875rem 0; }
  .face {
    flex: none;
    width: 2.5rem;
    height: 2.5rem;
    border-radius: 50%;
    object-fit: cover;
    border: 1px solid var(--_line);
  }
  .swatch [part='choice']:has(:checked) .face { outline: 2px solid var(--_accent); outline-offset: 2px; }
  .check { display: none; font-weight: 700; color: var(--_accent); }
  [part='choice']:has(:checked) .check { display: inline; }
  .swatch .check {
    position: absolute;
    top: 0.25rem;
    right: 0.25rem;
    width: 1.25rem;
    height: 1.25rem;
    border-radius: 50%;
    background: var(--_accent);
    color: var(--_on-accent);
    font-size: 0.75rem;
    line-height: 1.25rem;
  }
  .toggle [part='choice'] { border: 0; padding: 0; }
  .toggle [part='choice']:has(:checked) { box-shadow: none; }
  .delta { font-size: 0.875em; opacity: 0.8; }
  [part='price'] { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25rem 0.5rem; font-size: 1.125em; }
  [part='price'] .tax { font-size: 0.8em; opacity: 0.8; }
  [part='price-lines'] dl { display: grid; grid-template-columns: 1fr auto; gap: 0.25rem 1rem; margin: 0.5rem 0 0; }
  [part='price-lines'] dd { margin: 0; text-align: end; font-variant-numeric: tabular-nums; }
  [part='logo'] { max-width: 10rem; max-height: 3rem; object-fit: contain; }
  .animations { display: flex; flex-wrap: wrap; gap: 0.5rem; }
  [part='animation-button'][aria-pressed='true'] { box-shadow: inset 0 0 0 2px var(--_on-accent); }
  [part='save-button'] { background: transparent; color: inherit; }
  .save label { display: grid; gap: 0.375rem; font-size: 0.9375em; }
  .save-status:empty { display: none; }
  .cart { display: grid; gap: 0.5rem; }
  .cart-row { display: flex; gap: 0.5rem; align-items: stretch; }
  [part='cart-button'] { flex: 1; }
  [part='cart-button'].added::before { content: '✓ ' / ''; }
  [part='quantity'] {
    display: inline-flex;
    align-items: stretch;
    border: 1px solid var(--_line);
    border-radius: var(--_radius);
    background: var(--_field);
  }
  [part='quantity'] .step {
    min-width: 2.75rem;
    padding: 0;
    border: 0;
    border-radius: var(--_radius);
    background: transparent;
    color: inherit;
    font-size: 1.25em;
    font-weight: 400;
  }
  [part='quantity'] .step:disabled { cursor: default; opacity: 0.35; }
  [part='quantity'] input {
    width: 2.75rem;
    padding: 0;
    border: 0;
    border-radius: 0;
    background: transparent;
    text-align: center;
    font-variant-numeric: tabular-nums;
    appearance: textfield;
  }
  [part='quantity'] input::-webkit-inner-spin-button,
  [part='quantity'] input::-webkit-outer-spin-button { appearance: none; margin: 0; }
  .cart-status { font-size: 0.875em; }
  .cart-status.error { color: var(--_error); }
  .cart-status:empty { display: none; }
`;

/** Whether the owner set a brand colour (the parser fills a default in either case). */
function ownerBrandColor(data: PublicProject['data']): boolean {
  const settings = data.sceneData?.projectSettings ?? {};
  const branding = settings.branding as Record<string, unknown> | undefined;
  return !!(settings.brandColor ?? settings.primaryColor ?? branding?.primaryColor);
}

/**
 * Adds the panel's styles and the brand colour. The colour is a `:host` rule inside the shadow
 * root, so a page's own `--config-share-accent` on the element still wins (docs/scene-format.md, Branding).
 */
export function adoptConfiguratorStyles(element: LitElement, scene: Scene, data: PublicProject['data']) {
  const root = element.renderRoot as ShadowRoot;
  const brand = ownerBrandColor(data)
    ? [css`:host { --config-share-accent: ${unsafeCSS(scene.settings.branding.primaryColor)}; }`.styleSheet!]
    : [];
  const own = root.adoptedStyleSheets.filter((sheet) => !(sheet as { configurator?: true }).configurator);
  const added = [panelStyles.styleSheet!, ...brand];
  for (const sheet of added) Object.assign(sheet, { configurator: true });
  root.adoptedStyleSheets = [...own, ...added];
}
