import { describe, expect, it } from 'vitest';
import { checkVisitorEvent, parseScene } from '#core/wire/configurator/index.js';
import { demoStool, stoolCopy } from './demo-stool.js';

/** One visitor event checked against the scene (docs/api.md, Visitor events): only the listed data fields are kept. */
const { scene } = parseScene(demoStool);
const at = '2026-11-26T03:00:00.000Z';
const check = (type: string, data: Record<string, unknown>, against = scene) =>
  checkVisitorEvent(against, { type, at, data });
const refusal = (result: ReturnType<typeof check>) => (result.ok ? 'accepted' : result.error);
const options = { seat: 'walnut', legs: 'steel', backrest: 'off' };

describe('checkVisitorEvent: accepted events keep only their listed fields', () => {
  it.each([
    ['view', { extra: 1 }, {}],
    ['ar.opened', {}, {}],
    ['configuration.saved', { url: 'https://shop.example/#cs=abc' }, {}],
    [
      'option.changed',
      { blockId: 'seat', choiceId: 'walnut', previousChoiceId: 'oak', source: 'visitor', options, email: 'a@b.c' },
      { blockId: 'seat', choiceId: 'walnut', previousChoiceId: 'oak', source: 'visitor', options },
    ],
    [
      'option.changed',
      { blockId: 'seat', choiceId: 'walnut', source: 'api', options },
      { blockId: 'seat', choiceId: 'walnut', previousChoiceId: null, source: 'api', options },
    ],
    [
      'price.calculated',
      { options, fields: { quantity: 2, name: 9 }, total: 37800, currency: 'EUR', lines: [] },
      { options, fields: { quantity: 2 }, total: 37800, currency: 'EUR' },
    ],
    ['viewer.screenshot', { width: 1024, height: 768, image: 'data:...' }, { width: 1024, height: 768 }],
    ['viewer.screenshot', {}, {}],
    ['animation.triggered', { animationId: 'turn', trigger: 'button' }, { animationId: 'turn', trigger: 'button' }],
  ])('%s', (type, data, stored) => {
    expect(check(type, data)).toEqual({ ok: true, data: stored });
  });
});

describe('checkVisitorEvent: refused events say why', () => {
  it.each([
    ['an unknown type', 'page.scrolled', {}, 'unknown_type'],
    [
      'an unknown block',
      'option.changed',
      { blockId: 'colour', choiceId: 'red', source: 'visitor', options: {} },
      'unknown_block',
    ],
    [
      'an unknown choice',
      'option.changed',
      { blockId: 'seat', choiceId: 'teak', source: 'visitor', options: {} },
      'unknown_choice',
    ],
    [
      'an unknown previous choice',
      'option.changed',
      { blockId: 'seat', choiceId: 'oak', previousChoiceId: 'teak', source: 'visitor', options: {} },
      'unknown_choice',
    ],
    [
      'an unknown block in options',
      'option.changed',
      { blockId: 'seat', choiceId: 'oak', source: 'visitor', options: { colour: 'red' } },
      'unknown_block',
    ],
    [
      'a source other than visitor or api',
      'option.changed',
      { blockId: 'seat', choiceId: 'oak', source: 'rule', options: {} },
      'invalid_event',
    ],
    [
      'options that are not an object',
      'option.changed',
      { blockId: 'seat', choiceId: 'oak', source: 'api', options: 'x' },
      'invalid_event',
    ],
    ['an unknown animation', 'animation.triggered', { animationId: 'spin', trigger: 'button' }, 'unknown_animation'],
    ['a load trigger', 'animation.triggered', { animationId: 'turn', trigger: 'load' }, 'invalid_event'],
    ['a screenshot size that is not a pixel count', 'viewer.screenshot', { width: -5 }, 'invalid_event'],
    [
      'a total that is not minor units',
      'price.calculated',
      { options, fields: {}, total: 378.5, currency: 'EUR' },
      'invalid_event',
    ],
    [
      'a malformed currency',
      'price.calculated',
      { options, fields: {}, total: 37800, currency: 'euro' },
      'invalid_event',
    ],
    ['data over 2 KB as JSON', 'view', { padding: 'x'.repeat(2100) }, 'invalid_event'],
  ])('%s', (_case, type, data, error) => {
    expect(refusal(check(type, data))).toBe(error);
  });

  it('refuses price.calculated for a project without pricing', () => {
    const data = stoolCopy();
    data.sceneData.pricingBlocks = [];
    data.sceneData.pricingFormula = [];
    for (const block of data.sceneData.optionBlocks) for (const choice of block.choices) delete choice.price;
    const unpriced = parseScene(data).scene;
    const result = check('price.calculated', { options: {}, fields: {}, total: 0, currency: null }, unpriced);
    expect(result).toMatchObject({ ok: false, error: 'invalid_event', message: expect.stringContaining('no pricing') });
  });

  it('refuses data that is not an object', () => {
    expect(refusal(checkVisitorEvent(scene, { type: 'view', at, data: [] as never }))).toBe('invalid_event');
  });
});
