/** The editor's content panels (docs/owner-console.md, "The editor"); importing this module defines their tags. */
export { OptionsPanel } from './options-panel.js';
export { PricePanel } from './price-panel.js';
export { FormPanel } from './form-panel.js';
export { AnimationsPanel } from './animations-panel.js';
export { LookPanel } from './look-panel.js';
export { PriceList } from './price-list.js';
