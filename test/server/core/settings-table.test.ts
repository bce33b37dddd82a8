import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { withSettingsTable } from '#core/platform/config/settings-table.js';
import { ALL_PIECES } from '#core/platform/config/pieces.js';

const README = new URL('../../../README.md', import.meta.url);

describe("README's settings table", () => {
  it('is the one the settings declare (run `npm run docs:settings` when this fails)', async () => {
    const readme = await readFile(README, 'utf8');
    expect(readme, 'README.md settings table is stale: run `npm run docs:settings`').toBe(withSettingsTable(readme));
  });

  it('has one row per setting', async () => {
    const readme = await readFile(README, 'utf8');
    const names = new Set(ALL_PIECES.flatMap((piece) => Object.keys(piece.settings)));
    for (const name of names) expect(readme.split(`\n| \`${name}\` |`)).toHaveLength(2);
  });
});
