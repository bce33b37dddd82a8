/**
 * **Lazy chunk** (`configurator-[hash].js`): the scene parser, pricing, the options panel and
 * saving (contract 12.9 "Chunks"). The element fetches it, in parallel with the viewer chunk, as
 * soon as a payload with options, pricing, animations, branding or saving arrives.
 */
export { Configurator, type ConfigurationSnapshot } from './configurator.js';
