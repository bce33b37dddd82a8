import { describe, expect, it } from 'vitest';
import { getIn, moveItem, removeItem, setIn, uniqueSlug } from '../../demo/owner/editor/panels/draft-edit.js';
import { readNumberText } from '../../demo/owner/editor/panels/number-rule.js';
import { nodeNames } from '../../demo/owner/editor/panels/outline-names.js';

describe('draft edits', () => {
  const data = {
    models: [{ id: 'm', extra: 1 }],
    sceneData: { optionBlocks: [{ id: 'a', mine: { x: 1 } }, { id: 'b' }] },
  };

  it('sets a value without touching the original and keeps unknown fields', () => {
    const next = setIn(data, ['sceneData', 'optionBlocks', 0, 'name'], 'Seat');
    expect(next.sceneData.optionBlocks[0]).toEqual({ id: 'a', mine: { x: 1 }, name: 'Seat' });
    expect(data.sceneData.optionBlocks[0]).not.toHaveProperty('name');
    expect(next.models).toBe(data.models);
    expect(getIn(next, ['sceneData', 'optionBlocks', 1, 'id'])).toBe('b');
  });

  it('removes a key when the value is undefined and creates missing objects', () => {
    expect(setIn(data, ['sceneData', 'optionBlocks', 0, 'mine'], undefined).sceneData.optionBlocks[0]).toEqual({
      id: 'a',
    });
    expect(setIn({}, ['a', 'b'], 1)).toEqual({ a: { b: 1 } });
  });

  it('sets owner keys such as __proto__ as own properties', () => {
    const next = setIn({} as Record<string, unknown>, ['__proto__'], 'x');
    expect(Object.hasOwn(next, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
  });

  it('moves and removes list entries as they are', () => {
    const list = [{ id: 'a', keep: true }, { id: 'b' }, { id: 'c' }];
    expect(moveItem(list, 2, -1).map((e) => e.id)).toEqual(['a', 'c', 'b']);
    expect(moveItem(list, 0, -1)).toEqual(list);
    expect(moveItem(list, 0, 1)[1]).toBe(list[0]);
    expect(removeItem(list, 1)).toEqual([list[0], list[2]]);
  });

  it('makes unique slugs from labels', () => {
    expect(uniqueSlug('Seat colour', [])).toBe('seat-colour');
    expect(uniqueSlug('Seat colour', ['seat-colour', 'seat-colour-2'])).toBe('seat-colour-3');
    expect(uniqueSlug('Crème brûlée!', [])).toBe('creme-brulee');
    expect(uniqueSlug('€€', [], 'choice')).toBe('choice');
    expect(uniqueSlug('x'.repeat(100), []).length).toBeLessThanOrEqual(64);
  });

  it('reads numbers against their rule and names it', () => {
    const rule = { name: 'Price', min: -1_000_000_000, max: 1_000_000_000 };
    expect(readNumberText(' 149.90 ', rule)).toEqual({ ok: true, value: 149.9 });
    expect(readNumberText('', rule)).toEqual({ ok: true, value: undefined });
    expect(readNumberText('1,5', rule)).toEqual({
      ok: false,
      message: 'Price must be a number between -1,000,000,000 and 1,000,000,000',
    });
    expect(readNumberText('0', { name: 'Step', min: 0, max: 10, minExclusive: true }).ok).toBe(false);
  });

  it('lists outline nodes in tree order with their depth', () => {
    const node = (name: string | null, parent: number | null, children: number[]) => ({
      name,
      parent,
      mesh: false,
      children,
    });
    const outline = {
      nodes: [node('Leg', 1, []), node('Stool', null, [0, 2]), node(null, 1, [3]), node('Seat', 2, [])],
      materials: [],
      variants: [],
      animations: [],
      bounds: { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } },
      triangles: 0,
      vertices: 0,
    };
    expect(nodeNames(outline)).toEqual([
      { name: 'Stool', depth: 0 },
      { name: 'Leg', depth: 1 },
      { name: 'Seat', depth: 1 },
    ]);
  });
});
