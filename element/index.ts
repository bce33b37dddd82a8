/**
 * The `<config-share>` bundle's entry (`/element/config-share.js`): importing it defines the
 * element. The 3D view is a separate chunk, fetched when an element nears the viewport.
 */
export {
  ConfigShareElement,
  type ConfigShareEventDetails,
  type ConfigShareState,
  type SubmitExtra,
} from './config-share.js';
export { DEFAULT_STRINGS, type ConfigShareStrings } from './features/strings.js';
