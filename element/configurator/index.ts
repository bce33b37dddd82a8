/**
 * **Lazy chunk** (element/README.md, Decisions): fetched only for a payload with options, pricing, animations, branding
 * or saving, so a plain share never downloads it.
 */
export { Configurator, type ConfigurationSnapshot } from './configurator.js';
