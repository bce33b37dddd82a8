import { describe, expect, it } from 'vitest';
import { computePrice, parseScene, resolveOptions, type SceneWarning } from '#core/wire/configurator/index.js';
import { demoStool, stoolCopy } from './demo-stool.js';

/** The one scene parser (docs/scene-format.md): what the element draws and the server prices. */
const codes = (warnings: SceneWarning[]) => warnings.map(({ path, code }) => [path, code]);

describe('parseScene: the demo stool', () => {
  const { scene, warnings } = parseScene(demoStool);

  it('reads it without a warning', () => {
    expect(warnings).toEqual([]);
    expect(scene.hasPricing).toBe(true);
    expect(scene.saveConfigEnabled).toBe(true);
  });

  it('reads the model fields: part transforms as vectors, deleted parts, the pivot', () => {
    expect(scene.models).toEqual([
      {
        id: 'stool',
        partTransforms: { Leg_1: { rotation: { x: 0, y: 0, z: 0.1 } } },
        deletedParts: ['Footrest'],
        pivot: { x: 0, y: 0.2, z: 0 },
        partPivots: {},
      },
    ]);
  });

  it('reads blocks, choices, defaults and effects; colours become lower-case #rrggbb', () => {
    const [seat, legs, backrest] = scene.optionBlocks;
    expect(seat).toMatchObject({
      id: 'seat',
      name: 'Seat',
      type: 'swatch',
      targetObjectId: 'stool',
      defaultChoiceId: 'oak',
    });
    expect(seat.choices[0]).toEqual({ id: 'oak', label: 'Oak', price: null, color: '#c8a165', effects: [] });
    expect(seat.choices[1].effects).toEqual([
      { type: 'material', model: 'stool', nodes: ['Seat', 'Backrest'], color: '#5a3a22', roughness: 0.6 },
    ]);
    expect(legs.choices[1]).toMatchObject({ price: 25, effects: [{ type: 'variant', model: null, name: 'brass' }] });
    expect(backrest).toMatchObject({ type: 'toggle', defaultChoiceId: 'off' });
  });

  it('reads pricing, the formula, the number fields and the animation', () => {
    expect(scene.pricingBlocks).toEqual([{ id: 'base', label: 'Base price', price: 149, when: null }]);
    expect(scene.formula).toEqual([
      { op: 'multiply', operand: { kind: 'field', field: 'quantity' }, when: null, label: 'Quantity', index: 0 },
    ]);
    expect(scene.numberFields).toEqual([{ id: 'quantity', label: 'Quantity', min: 1, max: 20, default: 1 }]);
    expect(scene.animations).toEqual([
      {
        id: 'turn',
        name: 'Turn around',
        clip: 'Turn',
        trigger: 'button',
        on: null,
        model: null,
        loop: 'once',
        speed: 1,
        reverse: false,
      },
    ]);
    expect(scene.settings.pricing).toEqual({
      currency: 'EUR',
      decimals: 2,
      locale: null,
      showPrices: true,
      showDeltas: true,
      tax: { rate: 0.19, included: true, label: 'VAT' },
      rounding: 'half-up',
    });
  });
});

describe('parseScene: warnings name the entry with a dotted path', () => {
  it('drops a bad property of an effect: sceneData.optionBlocks.2.choices.0.effects.1.color', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks[2].choices[0].effects.push({ type: 'material', material: 'Oak', color: 'brown' });
    const { scene, warnings } = parseScene(data);
    expect(codes(warnings)).toEqual([['sceneData.optionBlocks.2.choices.0.effects.1.color', 'invalid_value']]);
    expect(scene.optionBlocks[2].choices[0].effects[1]).toEqual({ type: 'material', model: null, material: 'Oak' });
  });

  it('drops an unreadable part transform: models.0.partTransforms.Leg_1.rotation', () => {
    const data = stoolCopy();
    data.models[0].partTransforms.Leg_1.rotation = 'quarter turn';
    data.models[0].partTransforms.Leg_2 = { position: { x: 1, y: 'up' } };
    const { scene, warnings } = parseScene(data);
    expect(codes(warnings)).toEqual([
      ['models.0.partTransforms.Leg_1.rotation', 'invalid_type'],
      ['models.0.partTransforms.Leg_2.position.y', 'invalid_type'],
    ]);
    expect(scene.models[0].partTransforms).toEqual({ Leg_1: {}, Leg_2: { position: { x: 1 } } });
  });

  it('ignores the pivot when the model transform is a 16-number matrix', () => {
    const data = stoolCopy();
    data.models[0].transform = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    expect(parseScene(data).scene.models[0].pivot).toBeNull();
  });
});

describe('parseScene: ids, names, colours and URLs', () => {
  it('takes a number id as its decimal string and a missing label as the id', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks[1].choices.push({ id: 7 });
    const legs = parseScene(data).scene.optionBlocks[1];
    expect(legs.choices[2]).toMatchObject({ id: '7', label: '7' });
  });

  it('drops an id over 64 characters, a missing id and a repeated id', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks[1].choices.push({ id: 'x'.repeat(65) }, { label: 'No id' }, { id: 'brass' });
    const { scene, warnings } = parseScene(data);
    expect(codes(warnings)).toEqual([
      ['sceneData.optionBlocks.1.choices.2.id', 'invalid_value'],
      ['sceneData.optionBlocks.1.choices.3.id', 'missing_field'],
      ['sceneData.optionBlocks.1.choices.4.id', 'duplicate_id'],
    ]);
    expect(scene.optionBlocks[1].choices.map((choice) => choice.id)).toEqual(['steel', 'brass']);
  });

  it('cuts a label past 200 characters', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks[0].name = 'S'.repeat(250);
    const { scene, warnings } = parseScene(data);
    expect(scene.optionBlocks[0].name).toHaveLength(200);
    expect(codes(warnings)).toEqual([['sceneData.optionBlocks.0.name', 'invalid_value']]);
  });

  it('expands #rgb and refuses URLs that are not https', () => {
    const data = stoolCopy();
    Object.assign(data.sceneData.optionBlocks[0].choices[0], {
      color: '#ABC',
      thumbnail: 'http://cdn.example/oak.png',
    });
    data.sceneData.optionBlocks[0].choices[1].thumbnail = 'https://cdn.example/walnut.png';
    const { scene, warnings } = parseScene(data);
    expect(scene.optionBlocks[0].choices[0]).toMatchObject({ color: '#aabbcc' });
    expect(scene.optionBlocks[0].choices[0].thumbnail).toBeUndefined();
    expect(scene.optionBlocks[0].choices[1].thumbnail).toBe('https://cdn.example/walnut.png');
    expect(codes(warnings)).toEqual([['sceneData.optionBlocks.0.choices.0.thumbnail', 'invalid_value']]);
  });

  it('refuses owner numbers beyond ±1,000,000,000', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks[1].choices[1].price = 1_000_000_001;
    data.sceneData.pricingBlocks.push({ id: 'huge', price: -2e9 });
    const { scene, warnings } = parseScene(data);
    expect(codes(warnings)).toEqual([
      ['sceneData.optionBlocks.1.choices.1.price', 'invalid_value'],
      ['sceneData.pricingBlocks.1.price', 'invalid_value'],
    ]);
    expect(scene.optionBlocks[1].choices[1].price).toBeNull();
    expect(scene.pricingBlocks.map((block) => block.id)).toEqual(['base']);
  });
});

describe('parseScene: blocks, effects and rules', () => {
  it('makes a toggle without exactly two choices a choice block', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks[2].choices.push({ id: 'half', label: 'Half' });
    const { scene, warnings } = parseScene(data);
    expect(scene.optionBlocks[2].type).toBe('choice');
    expect(codes(warnings)).toEqual([['sceneData.optionBlocks.2.type', 'invalid_value']]);
  });

  it('drops a block without a valid choice', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks.push({ id: 'empty', choices: [{ label: 'no id' }] });
    const { scene, warnings } = parseScene(data);
    expect(scene.optionBlocks.map((block) => block.id)).toEqual(['seat', 'legs', 'backrest']);
    expect(codes(warnings)).toEqual([
      ['sceneData.optionBlocks.3.choices.0.id', 'missing_field'],
      ['sceneData.optionBlocks.3.choices', 'missing_field'],
    ]);
  });

  it('drops the names of deleted parts, and an effect left without nodes', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks[2].choices[1].effects = [
      { type: 'visibility', nodes: ['Footrest', 'Backrest'], visible: true },
      { type: 'transform', nodes: ['Footrest'], position: [0, 1, 0] },
    ];
    const { scene, warnings } = parseScene(data);
    expect(scene.optionBlocks[2].choices[1].effects).toEqual([
      { type: 'visibility', model: null, nodes: ['Backrest'], visible: true },
    ]);
    expect(codes(warnings)).toEqual([
      ['sceneData.optionBlocks.2.choices.1.effects.0.nodes.0', 'deleted_part'],
      ['sceneData.optionBlocks.2.choices.1.effects.1.nodes.0', 'deleted_part'],
    ]);
  });

  it('drops an effect with an empty node list', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks[2].choices[1].effects = [{ type: 'visibility', nodes: [], visible: true }];
    const { scene, warnings } = parseScene(data);
    expect(scene.optionBlocks[2].choices[1].effects).toEqual([]);
    expect(codes(warnings)).toEqual([['sceneData.optionBlocks.2.choices.1.effects.0.nodes', 'missing_field']]);
  });

  it('drops unknown effect types and effects naming an unknown model', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks[1].choices[0].effects.push(
      { type: 'sparkle' },
      { type: 'variant', name: 'steel', model: 'table' },
    );
    const { scene, warnings } = parseScene(data);
    expect(scene.optionBlocks[1].choices[0].effects).toHaveLength(1);
    expect(codes(warnings)).toEqual([
      ['sceneData.optionBlocks.1.choices.0.effects.1.type', 'unsupported'],
      ['sceneData.optionBlocks.1.choices.0.effects.2.model', 'unknown_reference'],
    ]);
  });

  it('drops the effects defaulting to an unknown targetObjectId, keeping the block', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks[0].targetObjectId = 'table';
    const { scene, warnings } = parseScene(data);
    expect(scene.optionBlocks[0]).toMatchObject({ targetObjectId: null });
    expect(scene.optionBlocks[0].choices[1].effects).toEqual([]);
    expect(codes(warnings)).toEqual([
      ['sceneData.optionBlocks.0.targetObjectId', 'unknown_reference'],
      ['sceneData.optionBlocks.0.choices.1.effects.0', 'unknown_reference'],
    ]);
  });

  it('keeps rules naming earlier blocks, one choice or a list', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks[1].rules = [{ when: { seat: 'walnut' }, disable: ['steel'] }];
    data.sceneData.optionBlocks[2].rules = [{ when: { seat: ['oak', 'walnut'], legs: 'brass' }, hideBlock: true }];
    const { scene, warnings } = parseScene(data);
    expect(warnings).toEqual([]);
    expect(scene.optionBlocks[1].rules).toEqual([
      { when: { seat: ['walnut'] }, hide: [], disable: ['steel'], hideBlock: false },
    ]);
    expect(scene.optionBlocks[2].rules[0]).toMatchObject({
      when: { seat: ['oak', 'walnut'], legs: ['brass'] },
      hideBlock: true,
    });
  });

  it('drops a rule naming a later block, its own block, an unknown block or an unknown choice', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks[1].rules = [
      { when: { backrest: 'on' }, hide: ['brass'] },
      { when: { legs: 'steel' }, hide: ['brass'] },
      { when: { colour: 'red' }, hide: ['brass'] },
      { when: { seat: ['oak', 'teak'] }, hide: ['brass'] },
    ];
    const { scene, warnings } = parseScene(data);
    expect(scene.optionBlocks[1].rules).toEqual([]);
    expect(codes(warnings)).toEqual([
      ['sceneData.optionBlocks.1.rules.0.when.backrest', 'unknown_reference'],
      ['sceneData.optionBlocks.1.rules.1.when.legs', 'unknown_reference'],
      ['sceneData.optionBlocks.1.rules.2.when.colour', 'unknown_reference'],
      ['sceneData.optionBlocks.1.rules.3.when.seat.1', 'unknown_reference'],
    ]);
  });
});

describe('parseScene: pricing', () => {
  it('has no pricing without a pricing block, a choice price or a formula step', () => {
    const data = stoolCopy();
    data.sceneData.pricingBlocks = [];
    data.sceneData.pricingFormula = [];
    for (const block of data.sceneData.optionBlocks) for (const choice of block.choices) delete choice.price;
    expect(parseScene(data).scene.hasPricing).toBe(false);
  });

  it('drops formula steps with an unknown op, field or block, or not exactly one operand', () => {
    const data = stoolCopy();
    data.sceneData.pricingFormula = [
      { op: 'divide', value: 2 },
      { op: 'multiply', field: 'name' },
      { op: 'multiply', option: 'colour' },
      { op: 'add', value: 1, field: 'quantity' },
      { op: 'add' },
      { op: 'round', value: 0 },
    ];
    const { scene, warnings } = parseScene(data);
    expect(scene.formula).toEqual([]);
    expect(codes(warnings)).toEqual([
      ['sceneData.pricingFormula.0.op', 'unsupported'],
      ['sceneData.pricingFormula.1.field', 'unknown_reference'],
      ['sceneData.pricingFormula.2.option', 'unknown_reference'],
      ['sceneData.pricingFormula.3', 'invalid_value'],
      ['sceneData.pricingFormula.4', 'missing_field'],
      ['sceneData.pricingFormula.5.value', 'invalid_value'],
    ]);
  });

  it('gives number fields the bounds 0 and 1,000,000 and drops a default outside them', () => {
    const data = stoolCopy();
    data.sceneData.formFields = [
      { id: 'area', label: 'Area', type: 'number' },
      { id: 'width', label: 'Width', type: 'number', min: 10, max: 5, default: 7 },
      { id: 'depth', label: 'Depth', type: 'number', max: 50, default: 60 },
    ];
    const { scene, warnings } = parseScene(data);
    expect(scene.numberFields).toEqual([
      { id: 'area', label: 'Area', min: 0, max: 1_000_000, default: null },
      { id: 'width', label: 'Width', min: 0, max: 1_000_000, default: 7 },
      { id: 'depth', label: 'Depth', min: 0, max: 50, default: null },
    ]);
    expect(codes(warnings)).toEqual([
      ['sceneData.formFields.1.min', 'invalid_value'],
      ['sceneData.formFields.2.default', 'invalid_value'],
      // The demo formula reads `quantity`, which this form lacks.
      ['sceneData.pricingFormula.0.field', 'unknown_reference'],
    ]);
  });

  it('reads the currency from pricing, else the top level; refuses 4 decimals and malformed codes', () => {
    const settings = (projectSettings: unknown) => {
      const data = stoolCopy();
      data.sceneData.projectSettings = projectSettings;
      const { scene, warnings } = parseScene(data);
      return [scene.settings.pricing.currency, scene.settings.pricing.decimals, codes(warnings)];
    };
    expect(settings({ currency: 'gbp', pricing: { currency: 'chf' } })).toEqual(['CHF', 2, []]);
    expect(settings({ currency: 'bhd' })).toEqual(['BHD', 3, []]);
    expect(settings({ pricing: { currency: 'UYW' } })).toEqual([
      null,
      2,
      [['sceneData.projectSettings.pricing.currency', 'invalid_value']],
    ]);
    expect(settings({ currency: 'EURO' })).toEqual([
      null,
      2,
      [['sceneData.projectSettings.currency', 'invalid_value']],
    ]);
  });
});

describe('parseScene: projectSettings', () => {
  const read = (projectSettings: unknown) => {
    const data = stoolCopy();
    data.sceneData.projectSettings = projectSettings;
    return parseScene(data);
  };

  it('fills in every default', () => {
    const { scene, warnings } = read(undefined);
    expect(warnings).toEqual([]);
    expect(scene.settings).toEqual({
      pricing: {
        currency: null,
        decimals: 2,
        locale: null,
        showPrices: true,
        showDeltas: true,
        tax: null,
        rounding: 'half-up',
      },
      branding: { primaryColor: '#1f3a5f', logoUrl: null, companyName: null },
      lighting: {
        environment: 'room',
        environmentIntensity: 1,
        exposure: 1,
        keyLight: 1.5,
        shadows: 'auto',
        shadowOpacity: 0.25,
      },
      display: { background: '#ffffff', autoRotate: false, showOptions: true, showForm: true },
      camera: {
        fov: 45,
        minDistance: null,
        maxDistance: null,
        minPolarAngle: 0,
        maxPolarAngle: 180,
        enablePan: true,
        enableZoom: true,
        fit: true,
      },
      ar: { enabled: true, placement: 'floor', scale: 'auto' },
      cart: { enabled: false, label: 'Add to cart', skuBase: null, skuSeparator: '-', quantity: true, action: null },
      notifications: { customerCopy: false },
    });
  });

  it("reads the company name and the visitor's copy; a bad value is its default, with a warning", () => {
    const good = read({ branding: { companyName: 'Stool & Co.' }, notifications: { customerCopy: true } });
    expect(good.warnings).toEqual([]);
    expect(good.scene.settings.branding.companyName).toBe('Stool & Co.');
    expect(good.scene.settings.notifications).toEqual({ customerCopy: true });
    const bad = read({ branding: { companyName: 'x'.repeat(201) }, notifications: { customerCopy: 'yes' } });
    expect(bad.scene.settings.branding.companyName).toBeNull();
    expect(bad.scene.settings.notifications.customerCopy).toBe(false);
    expect(bad.warnings.map((w) => w.path)).toEqual([
      'sceneData.projectSettings.branding.companyName',
      'sceneData.projectSettings.notifications.customerCopy',
    ]);
  });

  it('reads the cart: a path on the page or an https: URL as its action, and nothing else', () => {
    const cart = (value: object) => read({ cart: value });
    const given = { enabled: true, label: 'Buy', skuBase: 'ST', skuSeparator: '/', quantity: false, action: '/cart' };
    const good = cart(given);
    expect(good.warnings).toEqual([]);
    expect(good.scene.settings.cart).toEqual(given);
    expect(cart({ action: 'https://shop.example/cart/add' }).scene.settings.cart.action).toBe(
      'https://shop.example/cart/add',
    );
    for (const action of ['//evil.example/cart', 'http://shop.example/cart', 'javascript:alert(1)', '/\\evil']) {
      const { scene, warnings } = cart({ action });
      expect(scene.settings.cart.action, action).toBeNull();
      expect(warnings.map((w) => w.path)).toEqual(['sceneData.projectSettings.cart.action']);
    }
    const long = cart({ skuSeparator: '-----------', skuBase: '' });
    expect(long.scene.settings.cart).toMatchObject({ skuSeparator: '-', skuBase: null });
    expect(long.warnings).toHaveLength(2);
  });

  it('replaces a bad value by its default, with a warning', () => {
    const { scene, warnings } = read({
      lighting: { exposure: 9, shadows: false, environment: 'studio' },
      camera: { fov: 5, fit: 'no' },
      display: { background: 'transparent', autoRotate: 'yes' },
      ar: { placement: 'ceiling' },
      pricing: { locale: 'en_US', rounding: 'bankers' },
    });
    expect(scene.settings.lighting).toMatchObject({ exposure: 1, shadows: false, environment: 'room' });
    expect(scene.settings.camera).toMatchObject({ fov: 45, fit: true });
    expect(scene.settings.display).toMatchObject({ background: 'transparent', autoRotate: false });
    expect(scene.settings.ar.placement).toBe('floor');
    expect(scene.settings.pricing).toMatchObject({ locale: null, rounding: 'half-up' });
    expect(codes(warnings).sort()).toEqual(
      [
        ['sceneData.projectSettings.lighting.exposure', 'invalid_value'],
        ['sceneData.projectSettings.lighting.environment', 'invalid_value'],
        ['sceneData.projectSettings.camera.fov', 'invalid_value'],
        ['sceneData.projectSettings.camera.fit', 'invalid_type'],
        ['sceneData.projectSettings.display.autoRotate', 'invalid_type'],
        ['sceneData.projectSettings.ar.placement', 'invalid_value'],
        ['sceneData.projectSettings.pricing.locale', 'invalid_value'],
        ['sceneData.projectSettings.pricing.rounding', 'invalid_value'],
      ].sort(),
    );
  });

  it('takes the top-level brandColor before branding.primaryColor, and showPrices from pricing first', () => {
    expect(
      read({ brandColor: '#F00', branding: { primaryColor: '#00ff00' } }).scene.settings.branding.primaryColor,
    ).toBe('#ff0000');
    expect(read({ branding: { primaryColor: '#00FF00' } }).scene.settings.branding.primaryColor).toBe('#00ff00');
    expect(read({ showPrices: false }).scene.settings.pricing.showPrices).toBe(false);
    expect(read({ showPrices: false, pricing: { showPrices: true } }).scene.settings.pricing.showPrices).toBe(true);
    expect(read({ pricing: { locale: 'de-de' } }).scene.settings.pricing.locale).toBe('de-DE');
  });
});

describe('parseScene: limits', () => {
  it('keeps the first 100 option blocks', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks = Array.from({ length: 101 }, (_, i) => ({ id: `b${i}`, choices: [{ id: 'a' }] }));
    const { scene, warnings } = parseScene(data);
    expect(scene.optionBlocks).toHaveLength(100);
    expect(scene.optionBlocks[99].id).toBe('b99');
    expect(codes(warnings)).toEqual([['sceneData.optionBlocks', 'limit_exceeded']]);
  });

  it('keeps the first 20 effects of a choice and 2,000 choices in a project', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks = Array.from({ length: 21 }, (_, b) => ({
      id: `b${b}`,
      choices: Array.from({ length: 100 }, (_, c) => ({ id: `c${c}` })),
    }));
    data.sceneData.optionBlocks[0].choices[0].effects = Array.from({ length: 21 }, () => ({
      type: 'variant',
      name: 'v',
    }));
    const { scene, warnings } = parseScene(data);
    expect(scene.optionBlocks[0].choices[0].effects).toHaveLength(20);
    expect(scene.optionBlocks.reduce((sum, block) => sum + block.choices.length, 0)).toBe(2000);
    expect(codes(warnings)).toEqual([
      ['sceneData.optionBlocks.0.choices.0.effects', 'limit_exceeded'],
      ['sceneData.optionBlocks.20.choices.0', 'limit_exceeded'],
      ['sceneData.optionBlocks.20.choices', 'missing_field'],
    ]);
  });

  it('lists 500 warnings, then one too_many_warnings', () => {
    const data = stoolCopy();
    data.models[0].partTransforms = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`Part_${i}`, 'bad']));
    const { warnings } = parseScene(data);
    expect(warnings).toHaveLength(501);
    expect(warnings[500]).toMatchObject({ code: 'too_many_warnings' });
    expect(warnings.filter((warning) => warning.code === 'too_many_warnings')).toHaveLength(1);
  });
});

describe('parseScene never throws', () => {
  // A small seeded generator, so a failure is reproducible.
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const keys = [
    'id',
    'name',
    'type',
    'choices',
    'effects',
    'rules',
    'when',
    'price',
    'value',
    'nodes',
    'op',
    'field',
    'option',
    'models',
    'sceneData',
    'optionBlocks',
    'pricingBlocks',
    'pricingFormula',
    'formFields',
    'projectSettings',
    'animationBlocks',
    'partTransforms',
    'deletedParts',
    'pivotData',
    'pricing',
    'tax',
    'rate',
    '__proto__',
    'trigger',
    'on',
    'blockId',
    'choiceId',
    'currency',
    'material',
    'color',
    'transform',
    'default',
    'min',
    'max',
    'hide',
  ];
  const junk = (depth: number): unknown => {
    const leaves = [
      null,
      0,
      -1,
      1e300,
      -0.125,
      NaN,
      'walnut',
      '',
      '#fff',
      'https://x.test/a.png',
      true,
      'x'.repeat(300),
    ];
    if (depth <= 0 || random() < 0.3) return pick(leaves);
    if (random() < 0.4) return Array.from({ length: Math.floor(random() * 5) }, () => junk(depth - 1));
    return Object.fromEntries(Array.from({ length: Math.floor(random() * 6) }, () => [pick(keys), junk(depth - 1)]));
  };

  it('answers a scene and well-formed warnings for 500 random inputs, which then resolve and price', () => {
    for (let i = 0; i < 500; i++) {
      const input = i % 2 ? junk(6) : { models: junk(3), sceneData: junk(5), saveConfigEnabled: junk(1) };
      const { scene, warnings } = parseScene(input);
      expect(Array.isArray(scene.optionBlocks)).toBe(true);
      expect(warnings.length).toBeLessThanOrEqual(501);
      for (const warning of warnings) expect(Object.keys(warning)).toEqual(['path', 'code', 'message']);
      const options = resolveOptions(scene, junk(2) as Record<string, unknown>).options;
      const price = computePrice(scene, options, junk(2) as Record<string, unknown>);
      if (price) expect(price.lines.reduce((sum, line) => sum + line.amount, 0)).toBe(price.total);
    }
  });

  it('answers an empty scene for input that is no project', () => {
    for (const input of [undefined, null, 42, 'text', [], [1, 2], { sceneData: [] }, Object.create(null)]) {
      expect(parseScene(input).scene).toMatchObject({ optionBlocks: [], hasPricing: false });
    }
  });
});
