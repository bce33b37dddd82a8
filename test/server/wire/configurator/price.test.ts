import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { choiceDelta, computePrice, parseScene, resolveOptions } from '#core/wire/configurator/index.js';

/**
 * The price of a configuration (docs/scene-format.md, Pricing blocks), from the shared table the element's browser test
 * also runs: parse the project, resolve the options, price them with the form's number fields.
 */
interface PricingCase {
  name: string;
  data: unknown;
  options: Record<string, unknown>;
  fields: Record<string, unknown>;
  expected: unknown;
}
const cases: PricingCase[] = JSON.parse(
  readFileSync(new URL('../../../fixtures/pricing-cases.json', import.meta.url), 'utf8'),
);

describe('computePrice: the shared pricing table', () => {
  it.each(cases.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    const { scene, warnings } = parseScene(entry.data);
    const price = computePrice(scene, resolveOptions(scene, entry.options).options, entry.fields);
    expect(price).toEqual(entry.expected);
    if (price) expect(price.lines.reduce((sum, line) => sum + line.amount, 0)).toBe(price.total);
    // Only the cases about refused owner values produce warnings.
    if (!/dropped|refused/.test(entry.name)) expect(warnings).toEqual([]);
  });
});

const stool = cases.find((entry) => entry.name.startsWith('the demo stool example'))!;

describe('computePrice', () => {
  it('prices the options it is given as resolveOptions would: a hidden or unknown choice takes the default', () => {
    const { scene } = parseScene(stool.data);
    const price = computePrice(scene, { seat: 'teak', legs: 'brass' }, { quantity: 1 });
    expect(price?.lines.map((line) => line.id)).toEqual(['base', 'legs.brass']);
    expect(price?.total).toBe(17400);
  });

  it('treats non-numeric field values as missing (the default applies)', () => {
    const { scene } = parseScene(stool.data);
    expect(computePrice(scene, {}, { quantity: 'lots' })?.total).toBe(14900);
    expect(computePrice(scene, {}, { quantity: { value: 3 } })?.total).toBe(14900);
  });
});

describe('choiceDelta', () => {
  const { scene } = parseScene(stool.data);
  const choice = (blockId: string, choiceId: string) =>
    scene.optionBlocks.find((block) => block.id === blockId)!.choices.find((entry) => entry.id === choiceId)!;

  it("is the choice's price in minor units", () => {
    expect(choiceDelta(scene, choice('seat', 'walnut'))).toBe(4000);
    expect(choiceDelta(scene, choice('seat', 'oak'))).toBe(0);
  });

  it('is null for a choice without price', () => {
    expect(choiceDelta(scene, choice('legs', 'steel'))).toBeNull();
  });
});
