import { computePrice, parseScene, resolveOptions } from '#core/wire/configurator/index.js';
import { assert } from './helpers.js';

/** The shared pricing table (test/fixtures/pricing-cases.json), priced by the browser's copy of the module. */
interface PricingCase {
  name: string;
  data: unknown;
  options: Record<string, unknown>;
  fields: Record<string, unknown>;
  expected: unknown;
}

/** JSON with sorted keys: the comparison ignores key order, as the server's toEqual does. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );

describe('computePrice in the browser: the shared pricing table', () => {
  it('gives every expected price, exactly as on the server', async () => {
    const res = await fetch('/test/fixtures/pricing-cases.json');
    assert(res.ok, 'the table is served');
    const cases = (await res.json()) as PricingCase[];
    assert(cases.length > 0, 'cases');
    const wrong = cases.flatMap((entry) => {
      const { scene } = parseScene(entry.data);
      const price = computePrice(scene, resolveOptions(scene, entry.options).options, entry.fields);
      return canonical(price) === canonical(entry.expected)
        ? []
        : [`${entry.name}: expected ${canonical(entry.expected)}, got ${canonical(price)}`];
    });
    assert(wrong.length === 0, `${wrong.length} of ${cases.length} differ:\n${wrong.join('\n')}`);
  });
});
