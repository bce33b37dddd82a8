import { describe, expect, it } from 'vitest';
import { modelAssetIds, withNameWarnings, type OutlineNames } from '#core/domain/scene-names.js';
import { suggestNames } from '#core/domain/name-suggestions.js';

/** Names checked against stored outlines (docs/api.md, "Model outlines and names checked"), without a database. */
const STOOL_ID = '7b0c5a57-0c61-4c2a-9d47-0d1f5a7e1a01';
const TABLE_ID = '7b0c5a57-0c61-4c2a-9d47-0d1f5a7e1a02';
const STOOL: OutlineNames = {
  fileName: 'stool.glb',
  nodes: ['Stool', 'Seat', 'Leg_1', 'Leg_2', 'Leg_3', 'Leg_4', 'Backrest', 'Footrest'],
  materials: ['Oak', 'Steel', 'Brass'],
  variants: ['steel', 'brass'],
  animations: ['Turn'],
};
const TABLE: OutlineNames = {
  fileName: 'table.glb',
  nodes: ['Top', 'Leg'],
  materials: ['Oak'],
  variants: [],
  animations: [],
};
const outlines = new Map([
  [STOOL_ID, STOOL],
  [TABLE_ID, TABLE],
]);

const effectsScene = (effects: unknown[], block: Record<string, unknown> = {}) => ({
  models: [
    { id: 'stool', assetId: STOOL_ID },
    { id: 'table', assetId: TABLE_ID },
  ],
  sceneData: { optionBlocks: [{ id: 'b', name: 'B', ...block, choices: [{ id: 'c', label: 'C', effects }] }] },
});

describe('names checked', () => {
  it('names the unknown part and its model, with close names of the same kind, closest first', () => {
    const warnings = withNameWarnings(
      [],
      {
        models: [
          {
            id: 'stool',
            assetId: STOOL_ID,
            partTransforms: { Leg_1: {}, leg_9: {} },
            deletedParts: ['Footrest', 'Sead'],
            pivotData: { parts: { BACKREST: { x: 0, y: 0, z: 0 } } },
          },
        ],
      },
      outlines,
    );
    expect(warnings).toEqual([
      {
        path: 'models.0.partTransforms.leg_9',
        code: 'unknown_name',
        message: 'Part "leg_9" is not in model "stool" (stool.glb).',
        suggestions: ['Leg_1', 'Leg_2', 'Leg_3'],
      },
      {
        path: 'models.0.deletedParts.1',
        code: 'unknown_name',
        message: 'Part "Sead" is not in model "stool" (stool.glb).',
        suggestions: ['Seat'],
      },
      {
        path: 'models.0.pivotData.parts.BACKREST',
        code: 'unknown_name',
        message: 'Part "BACKREST" is not in model "stool" (stool.glb).',
        // The same name in another case first, then by edit distance.
        suggestions: ['Backrest', 'Footrest'],
      },
    ]);
  });

  it("checks an effect against its model, else its block's target, else every model", () => {
    const warnings = withNameWarnings(
      [],
      effectsScene([
        { type: 'material', model: 'table', nodes: ['Seat'], use: 'Oak' },
        { type: 'material', material: 'Oka', use: 'Brass' },
        { type: 'variant', model: 'stool', name: 'bras' },
        { type: 'visibility', nodes: ['Top', 'Seat', 'Armrest'], visible: false },
      ]),
      outlines,
    );
    const path = 'sceneData.optionBlocks.0.choices.0.effects';
    expect(warnings.map(({ path, suggestions }) => [path, suggestions])).toEqual([
      [`${path}.0.nodes.0`, []],
      [`${path}.1.material`, ['Oak']],
      [`${path}.2.name`, ['brass']],
      [`${path}.3.nodes.2`, ['Backrest']],
    ]);
    expect(warnings[1].message).toBe(
      'Material "Oka" is in none of the models "stool" (stool.glb), "table" (table.glb).',
    );

    const targeted = withNameWarnings(
      [],
      effectsScene([{ type: 'transform', nodes: ['Top'] }], { targetObjectId: 'stool' }),
      outlines,
    );
    expect(targeted).toMatchObject([{ path: `${path}.0.nodes.0`, code: 'unknown_name' }]);
  });

  it('checks a clip in its model, else in any model', () => {
    const warnings = withNameWarnings(
      [],
      {
        models: [
          { id: 'stool', assetId: STOOL_ID },
          { id: 'table', assetId: TABLE_ID },
        ],
        sceneData: {
          animationBlocks: [
            { id: 'a', clip: 'Turn', trigger: 'button' },
            { id: 'b', clip: 'Turn', model: 'table', trigger: 'button' },
            { id: 'c', clip: 'turn', trigger: 'button' },
          ],
        },
      },
      outlines,
    );
    expect(warnings).toMatchObject([
      { path: 'sceneData.animationBlocks.1.clip', message: 'Clip "Turn" is not in model "table" (table.glb).' },
      { path: 'sceneData.animationBlocks.2.clip', suggestions: ['Turn'] },
    ]);
  });

  it('gives one not_checked per model without an outline, and checks no name against it', () => {
    const data = {
      models: [
        { id: 'bare', partTransforms: { Nope: {} } },
        { id: 'foreign', assetId: '00000000-0000-4000-8000-000000000000', deletedParts: ['Nope'] },
        { id: 'odd', assetId: 'not-a-uuid' },
        { id: 'stool', assetId: STOOL_ID },
      ],
      sceneData: { optionBlocks: [{ id: 'b', choices: [{ id: 'c', effects: [{ type: 'variant', name: 'gold' }] }] }] },
    };
    expect(modelAssetIds(data)).toEqual(['00000000-0000-4000-8000-000000000000', STOOL_ID]);
    const warnings = withNameWarnings([], data, outlines);
    expect(warnings.map(({ path, code }) => [path, code])).toEqual([
      ['models.0', 'not_checked'],
      ['models.1', 'not_checked'],
      ['models.2', 'not_checked'],
    ]);
    expect(warnings[0].message).toBe('The names of model "bare" are not checked: it has no assetId.');
  });

  it("comes after the parser's warnings and stops at 500 with one too_many_warnings", () => {
    const parser = [{ path: 'x', code: 'invalid_type' as const, message: 'x' }];
    const data = {
      models: [{ id: 'stool', assetId: STOOL_ID, deletedParts: Array.from({ length: 600 }, (_, i) => `Gone_${i}`) }],
    };
    const warnings = withNameWarnings(parser, data, outlines);
    expect(warnings).toHaveLength(501);
    expect(warnings[0]).toBe(parser[0]);
    expect(warnings[1].path).toBe('models.0.deletedParts.0');
    expect(warnings[500]).toMatchObject({ code: 'too_many_warnings' });
  });

  it('suggests nothing too far off, and at most 3', () => {
    const budget = { cells: 1_000_000 };
    expect(suggestNames('Sead', ['Seat', 'Stool', 'Backrest', 'sead'], { limit: 3, budget })).toEqual(['sead', 'Seat']);
    expect(suggestNames('Wheel', ['Seat', 'Backrest'], { limit: 3, budget })).toEqual([]);
    expect(suggestNames('Leg', ['Leg_1', 'Leg_2', 'Leg_3', 'Leg_4'], { limit: 3, budget })).toEqual([
      'Leg_1',
      'Leg_2',
      'Leg_3',
    ]);
  });
});
