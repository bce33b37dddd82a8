/**
 * The one scene parser, price and configuration codec of docs/scene-format.md, shared by the
 * element, the server and the worker. No Node imports.
 */
export type * from './types.js';
export * from './visitor-events.js';
export { parseScene } from './parse-scene.js';
export { resolveOptions } from './resolve-options.js';
export { computePrice, choiceDelta } from './price.js';
export { formatMoney } from './format-money.js';
export {
  encodeConfiguration,
  decodeConfiguration,
  configurationFieldsFor,
  MAX_CONFIGURATION_LENGTH,
  type SavedConfiguration,
} from './configuration-codec.js';

export { checkVisitorEvent } from './check-visitor-event.js';
