/** The owner console's entry (built by `npm run build` into dist/console/). */
import './owner-console.js';
