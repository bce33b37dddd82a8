import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ELEMENT_ENTRY, ensureElementBuilt } from '../../scripts/start/element-build.js';

/**
 * The loader (its entry and every chunk that entry imports) is at most 15 KB gzip (element/README.md, Build and tests).
 */
const LOADER_LIMIT_BYTES = 15 * 1024;

/** The chunks a built module imports statically (`import … from "./x.js"`), not its lazy `import()`s. */
const staticImports = (code: string) =>
  [...code.matchAll(/(?:^|[;}])\s*import\s*(?:[^'"`()]*?from\s*)?["'`]([^"'`]+)["'`]/g)].map((match) => match[1]);

async function loaderFiles(entry: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const code = await readFile(entry, 'utf8');
  for (const specifier of staticImports(code)) await loaderFiles(path.resolve(path.dirname(entry), specifier), seen);
  return seen;
}

describe('the element loader', () => {
  it('stays within 15 KB gzip, with the chunks it needs before it runs', { timeout: 120_000 }, async () => {
    await ensureElementBuilt(() => undefined);
    const files = [...(await loaderFiles(ELEMENT_ENTRY))];
    const sizes = await Promise.all(files.map(async (file) => gzipSync(await readFile(file), { level: 9 }).byteLength));
    const total = sizes.reduce((sum, size) => sum + size, 0);
    expect(total, `${files.map((file, i) => `${path.basename(file)} ${sizes[i]} B`).join(', ')}`).toBeLessThanOrEqual(
      LOADER_LIMIT_BYTES,
    );
  });
});
