import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { settingsDoc } from '#core/platform/config/settings-table.js';

const DOC = new URL('../../../docs/settings.md', import.meta.url);

describe('docs/settings.md', () => {
  it('is the one the settings schema makes (run `npm run docs:settings` when this fails)', async () => {
    expect(await readFile(DOC, 'utf8'), 'docs/settings.md is stale: run `npm run docs:settings`').toBe(settingsDoc());
  });

  it('has one row per setting, and the README links it', async () => {
    const names = (await readFile(DOC, 'utf8')).match(/^\| `[A-Z0-9_]+` \|/gm) ?? [];
    // A setting read by several processes (RATE_LIMIT_SHARE_READ) still has one row.
    expect(names).toContain('| `RATE_LIMIT_SHARE_READ` |');
    expect(new Set(names).size).toBe(names.length);
    expect(await readFile(new URL('../../../README.md', import.meta.url), 'utf8')).toContain('(docs/settings.md)');
  });
});
