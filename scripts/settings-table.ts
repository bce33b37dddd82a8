import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { withSettingsTable } from '#core/platform/config/settings-table.js';

/** `npm run docs:settings`: rewrites README.md's settings table from the settings' declarations (pieces.ts). */
const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));
const readme = await readFile(readmePath, 'utf8');
const updated = withSettingsTable(readme);
if (updated === readme) console.log('README.md: the settings table is current');
else {
  await writeFile(readmePath, updated);
  console.log('README.md: settings table rewritten');
}
