import { describe, expect, it } from 'vitest';
import { parseScene, resolveOptions } from '#core/wire/configurator/index.js';
import { stoolCopy } from './demo-stool.js';

/** Defaults and rules applied in one pass in block order (docs/scene-format.md, Option rules). */
function stoolWithRules() {
  const data = stoolCopy();
  const [seat, legs, backrest] = data.sceneData.optionBlocks;
  seat.choices.push({ id: 'teak', label: 'Teak', color: '#8b5a2b' });
  // Walnut requires brass legs: `disable` on the later block.
  legs.rules = [
    { when: { seat: 'walnut' }, disable: ['steel'] },
    { when: { seat: 'teak' }, hide: ['steel', 'brass'] },
  ];
  backrest.rules = [{ when: { legs: 'brass' }, hideBlock: true }];
  return parseScene(data).scene;
}
const scene = stoolWithRules();

describe('resolveOptions', () => {
  it('selects each block default when nothing is requested', () => {
    expect(resolveOptions(scene, undefined)).toEqual({
      options: { seat: 'oak', legs: 'steel', backrest: 'off' },
      ignored: [],
      blocks: {
        seat: { active: true, hidden: [], disabled: [] },
        legs: { active: true, hidden: [], disabled: [] },
        backrest: { active: true, hidden: [], disabled: [] },
      },
    });
  });

  it('takes the requested choices', () => {
    expect(resolveOptions(scene, { seat: 'oak', legs: 'steel', backrest: 'on' }).options).toEqual({
      seat: 'oak',
      legs: 'steel',
      backrest: 'on',
    });
  });

  it('moves a disabled selection to the first available choice and lists the request as ignored', () => {
    const resolved = resolveOptions(scene, { seat: 'walnut', legs: 'steel' });
    expect(resolved.options).toEqual({ seat: 'walnut', legs: 'brass' });
    expect(resolved.ignored).toEqual(['legs']);
    expect(resolved.blocks.legs).toEqual({ active: true, hidden: [], disabled: ['steel'] });
  });

  it('makes a block inactive under hideBlock: no selection, a request for it ignored', () => {
    const resolved = resolveOptions(scene, { seat: 'walnut', backrest: 'on' });
    expect(resolved.options).toEqual({ seat: 'walnut', legs: 'brass' });
    expect(resolved.blocks.backrest.active).toBe(false);
    expect(resolved.ignored).toEqual(['backrest']);
  });

  it('makes a block with no available choice inactive, and rules reading it see no selection', () => {
    const resolved = resolveOptions(scene, { seat: 'teak' });
    expect(resolved.options).toEqual({ seat: 'teak', backrest: 'off' });
    expect(resolved.blocks.legs).toEqual({ active: false, hidden: ['steel', 'brass'], disabled: [] });
  });

  it('ignores unknown blocks, unknown choices and values that are not strings', () => {
    const requested = JSON.parse('{ "seat": "mahogany", "legs": 2, "colour": "red", "__proto__": "x" }');
    const resolved = resolveOptions(scene, requested);
    expect(resolved.options).toEqual({ seat: 'oak', legs: 'steel', backrest: 'off' });
    expect(resolved.ignored).toEqual(['seat', 'legs', 'colour', '__proto__']);
  });

  it('answers the defaults for a request that is not an object', () => {
    expect(resolveOptions(scene, ['walnut'] as never).options).toEqual({ seat: 'oak', legs: 'steel', backrest: 'off' });
  });
});
