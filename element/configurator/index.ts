/**
 * **Lazy chunk** (contract 12.9 "Chunks"): fetched only for a payload with options, pricing, animations, branding or
 * saving, so a plain share never downloads it.
 */
export { Configurator, type ConfigurationSnapshot } from './configurator.js';
