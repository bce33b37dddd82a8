import { readFile, writeFile } from 'node:fs/promises';
import { settingsDoc } from '#core/platform/config/settings-table.js';

/** `npm run docs:settings`: rewrites docs/settings.md from the settings' schema (pieces.ts). */
const path = new URL('../docs/settings.md', import.meta.url);
const current = await readFile(path, 'utf8').catch(() => '');
if (current === settingsDoc()) console.log('docs/settings.md is current');
else {
  await writeFile(path, settingsDoc());
  console.log('docs/settings.md rewritten');
}
