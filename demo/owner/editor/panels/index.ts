/** The editor's content panels (docs/owner-console.md, "The editor"): importing this module defines their tags. */
import './options-panel.js';
import './price-panel.js';
import './form-panel.js';
import './animations-panel.js';
import './look-panel.js';
import './price-list.js';
