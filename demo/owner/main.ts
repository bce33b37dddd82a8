/** The owner console's entry (built by `npm run build:console` into dist/console/). */
import './owner-console.js';
