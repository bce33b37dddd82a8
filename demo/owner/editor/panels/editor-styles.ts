import { css } from 'lit';
import { panelStyles } from '../../styles.js';

/** The editor panels' look on top of the console's rules: cards, two-column field grids, compact pickers. */
const editorRules = css`
  :host { font-size: 0.95rem; }
  .panel-intro { margin: 0 0 0.8rem; }
  .grid { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0.2rem 1rem; align-items: start; }
  .grid > .wide { grid-column: 1 / -1; }
  .field { display: flex; flex-direction: column; min-width: 0; }
  .field > label, .field > .label { margin: 0.45rem 0 0.15rem; font-weight: 600; }
  .field input[type='text'], .field input[type='url'], .field input[type='number'], .field select {
    min-width: 0; width: 100%;
  }
  .field .help { font-size: 0.82rem; color: #555; margin: 0.15rem 0 0; }
  .field .error { font-size: 0.85rem; color: #a00; margin: 0.15rem 0 0; }
  input[aria-invalid='true'] { border-color: #a00; background: #fff5f5; }
  .check { display: flex; gap: 0.45rem; align-items: center; margin: 0.55rem 0 0.2rem; font-weight: normal; }
  .check input { margin: 0; }
  .field > label.check { font-weight: normal; margin: 0.55rem 0 0.2rem; }
  .field.actions { align-items: flex-start; justify-content: flex-end; }
  .colour { display: flex; gap: 0.4rem; align-items: center; }
  .colour input[type='color'] { width: 3rem; height: 2rem; padding: 0 0.1rem;
    border: 1px solid #888; border-radius: 4px; }
  .card { background: #fff; box-shadow: 0 1px 2px rgb(0 0 0 / 6%); }
  .card.nested { background: #fafafc; margin: 0.5rem 0; }
  .card-head { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
  .card-head h3, .card-head h4, .card-head h5 { margin: 0.2rem 0; flex: 1 1 auto; font-size: 1rem; }
  .card-head .tools { display: flex; gap: 0.1rem; flex-wrap: wrap; }
  .tools button, button.small { padding: 0.15rem 0.5rem; font-size: 0.85rem; }
  details > summary { cursor: pointer; font-weight: 600; margin: 0.4rem 0; }
  details.advanced > summary { font-weight: normal; color: #335; font-size: 0.9rem; }
  .choice-row { display: flex; gap: 0.5rem; align-items: center; }
  .choice-row summary { flex: 1 1 auto; }
  .swatch {
    display: inline-block; width: 1rem; height: 1rem; border-radius: 50%; border: 1px solid #999;
    vertical-align: middle; margin-right: 0.3rem;
  }
  .picker { border: 1px solid #bbb; border-radius: 4px; max-height: 11rem;
    overflow: auto; padding: 0.2rem 0.4rem; background: #fff; }
  .picker label { display: flex; gap: 0.4rem; align-items: center; margin: 0.1rem 0; font-weight: normal; }
  .chips { display: flex; flex-wrap: wrap; gap: 0.3rem; margin: 0.3rem 0; }
  .chip { display: inline-flex; gap: 0.3rem; align-items: center;
    border-radius: 999px; padding: 0.05rem 0.5rem; background: #eef; font-size: 0.85rem; }
  .chip.unknown { background: #fff1d6; border: 1px solid #c80; }
  .chip button { margin: 0; padding: 0 0.3rem; border: 0; background: transparent; }
  .flag { color: #8a4b00; font-size: 0.85rem; }
  ul.warnings { list-style: none; margin: 0.2rem 0; padding: 0; }
  ul.warnings li {
    font-size: 0.85rem; color: #7a3d00; background: #fff7e6; border-left: 3px solid #e59400; padding: 0.15rem 0.4rem;
    margin: 0.15rem 0;
  }
  .count { font-size: 0.8rem; background: #fff1d6; color: #7a3d00; border-radius: 999px; padding: 0 0.45rem; }
  .empty { color: #555; font-style: italic; }
  .sub { margin: 0.4rem 0 0.1rem; font-size: 0.95rem; }
  .add-row { display: flex; gap: 0.5rem; align-items: flex-end; flex-wrap: wrap; margin-top: 0.5rem; }
  .add-row input { min-width: 12rem; }
  fieldset { padding: 0.3rem 0.7rem 0.6rem; }
  legend { font-weight: 600; padding: 0 0.3rem; }
  .total { font-size: 1.05rem; font-weight: 600; }
  a.button {
    display: inline-block; padding: 0.35rem 0.8rem; border: 1px solid #335; border-radius: 4px; background: #224;
    color: #fff; text-decoration: none;
  }
`;

export const editorStyles = [panelStyles, editorRules];
