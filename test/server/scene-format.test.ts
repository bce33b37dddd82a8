import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ProjectDataSchema } from '#core/wire/project-data-schema.js';
import { parseScene } from '#core/wire/configurator/index.js';
import { demoProjectData } from '../../scripts/start/demo-data.js';

/** docs/scene-format.md, the published schema and the parser say the same thing. */
type Schema = Record<string, any>;
const schema = ProjectDataSchema as Schema;
const doc = readFileSync(new URL('../../docs/scene-format.md', import.meta.url), 'utf8');

const ajv = new Ajv2020({ allErrors: true });
ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
const validate = ajv.compile(schema);
const fits = (sub: Schema, value: unknown) => ajv.validate(sub, value);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const valuesOf = (sub: Schema): Schema => sub.additionalProperties ?? sub.patternProperties?.['^.*$'];

/** The subschema a doc heading names: `data.models[].partTransforms{}`, `...effects[type=material]`. */
function schemaAt(path: string): Schema {
  let at = schema;
  for (const segment of path.split('.').slice(1)) {
    const [, name, brackets] = /^(\w+)(\[[^\]]*\]|\{\})?$/.exec(segment)!;
    at = at.properties[name];
    if (brackets === '{}') at = valuesOf(at);
    else if (brackets) {
      at = at.items;
      const type = /^\[type=(\w+)\]$/.exec(brackets)?.[1];
      if (type) at = at.anyOf.find((branch: Schema) => branch.properties.type.const === type);
    }
    expect(at, path).toBeDefined();
  }
  return at;
}

interface DocTable {
  path: string;
  rows: { field: string; defaultCell: string; text: string }[];
  example: unknown;
}

/** Each heading ending in a `data...` path, its field table and the JSON example after it. */
function docTables(): DocTable[] {
  const sections = doc.split(/^(?=#{2,4} )/m);
  return sections.flatMap((section) => {
    const path = /^#{2,4} .*`(data[^`]*)`\s*$/m.exec(section.split('\n')[0])?.[1];
    if (!path) return [];
    const rows = section
      .split('\n')
      .filter((line) => /^\| `\w+` \|/.test(line))
      .map((line) => {
        const cells = line.split(' | ');
        return { field: /`(\w+)`/.exec(cells[0])![1], defaultCell: cells[2], text: line.replaceAll(',', '') };
      });
    const example = /```json\n([\s\S]*?)```/.exec(section)?.[1];
    return [{ path, rows, example: example && JSON.parse(example) }];
  });
}

const stoolModel = { id: 'stool', fileName: 'stool.glb', assetId: '0b6f3c2e-8d1a-4f5e-9c7b-2a4d6e8f0a1b' };

describe('the project data schema', () => {
  it('accepts the demo stool and the doc shows its whole data', () => {
    const demo = demoProjectData(stoolModel);
    expect(validate(demo), JSON.stringify(validate.errors)).toBe(true);
    expect(parseScene(demo).warnings).toEqual([]);
    const shown = /## The demo stool[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)![1];
    expect(JSON.parse(shown)).toEqual(demo);
  });

  it.each([
    ['a model entry without id', { models: [{ fileName: 'a.glb' }] }, '/models/0'],
    ['a price as text', { sceneData: { optionBlocks: [{ id: 'a', choices: [{ id: 'b', price: '40' }] }] } }, 'price'],
    [
      'a roughness of 2',
      { sceneData: { optionBlocks: [{ id: 'a', choices: [{ id: 'b', effects: [effect('roughness', 2)] }] }] } },
      'roughness',
    ],
    [
      'an unknown effect type',
      { sceneData: { optionBlocks: [{ id: 'a', choices: [{ id: 'b', effects: [{ type: 'explode' }] }] }] } },
      'effects/0',
    ],
    ['101 option blocks', { sceneData: { optionBlocks: Array(101).fill({ id: 'a', choices: [{ id: 'b' }] }) } }, ''],
    ['a field of view of 170', { sceneData: { projectSettings: { camera: { fov: 170 } } } }, 'fov'],
    ['a render quality of ultra', { renderQuality: 'ultra' }, 'renderQuality'],
    ['a colour name', { sceneData: { projectSettings: { branding: { primaryColor: 'red' } } } }, 'primaryColor'],
    [
      'a choice trigger without on',
      { sceneData: { animationBlocks: [{ id: 'a', clip: 'T', trigger: 'choice' }] } },
      '',
    ],
    ['a formula step with two operands', { sceneData: { pricingFormula: [{ op: 'add', value: 1, field: 'q' }] } }, ''],
  ])('rejects %s', (_name, data, where) => {
    expect(validate(data)).toBe(false);
    expect(validate.errors!.some((error) => error.instancePath.includes(where))).toBe(true);
  });

  it('keeps fields of their own that editors store', () => {
    const data = { editor: { zoom: 2 }, sceneData: { optionBlocks: [{ id: 'a', ui: 'x', choices: [{ id: 'b' }] }] } };
    expect(validate(data)).toBe(true);
  });
});

function effect(key: string, value: unknown) {
  return { type: 'material', material: 'Oak', [key]: value };
}

describe('docs/scene-format.md', () => {
  const tables = docTables();

  it('has a table for every object of the schema', () => {
    expect(tables.map((table) => table.path)).toEqual(
      expect.arrayContaining([
        'data',
        'data.models[]',
        'data.sceneData.optionBlocks[].choices[].effects[type=transform]',
        'data.sceneData.projectSettings.pricing.tax',
        'data.camera',
      ]),
    );
    expect(tables).toHaveLength(27);
  });

  it.each(docTables().map((table) => [table.path, table] as const))(
    '%s: the same fields, limits and defaults as the schema, and a valid example',
    (path, table) => {
      const at = schemaAt(path);
      expect(table.rows.map((row) => row.field).sort()).toEqual(Object.keys(at.properties).sort());
      for (const row of table.rows) {
        const field = at.properties[row.field];
        for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'maxItems', 'maxLength', 'maxProperties']) {
          if (field[key] !== undefined) expect(row.text, `${row.field} ${key}`).toContain(String(Math.abs(field[key])));
        }
        if (field.default !== undefined)
          expect(row.defaultCell, `${row.field} default`).toContain(String(field.default));
      }
      expect(table.example, `${path} example`).toBeDefined();
      expect(fits(at, table.example), `${path} example: ${JSON.stringify(ajv.errors)}`).toBe(true);
    },
  );
});

/** A project using every object the schema bounds, so each limit can be probed against the parser. */
const sample = {
  models: [
    {
      id: 'stool',
      fileName: 'stool.glb',
      partTransforms: { Seat: { position: { y: 1 } } },
      deletedParts: ['Footrest'],
      pivotData: { x: 0, y: 0, z: 0, parts: { Seat: { x: 0, y: 0, z: 0 } } },
    },
  ],
  sceneData: {
    optionBlocks: [
      {
        id: 'seat',
        choices: [
          {
            id: 'oak',
            price: 1,
            value: 2,
            effects: [
              { type: 'material', nodes: ['Seat'], roughness: 0.5, metalness: 0.5, opacity: 0.5 },
              { type: 'visibility', nodes: ['Seat'], visible: true },
              { type: 'variant', name: 'brass' },
              { type: 'transform', nodes: ['Seat'], position: [0, 1, 0] },
            ],
          },
          { id: 'walnut' },
        ],
      },
      {
        id: 'legs',
        choices: [{ id: 'steel' }, { id: 'brass' }],
        rules: [{ when: { seat: 'oak' }, hide: ['steel'], disable: ['brass'] }],
      },
    ],
    formFields: [{ id: 'quantity', type: 'number' }],
    animationBlocks: [{ id: 'turn', clip: 'Turn', trigger: 'button', speed: 1 }],
    pricingBlocks: [{ id: 'base', price: 1, when: { seat: 'oak' } }],
    pricingFormula: [{ op: 'add', value: 1 }],
    projectSettings: {
      pricing: { tax: { rate: 0.1 } },
      lighting: { environmentIntensity: 1, exposure: 1, keyLight: 1, shadowOpacity: 0.5 },
      camera: { fov: 45, minDistance: 0, maxDistance: 2, minPolarAngle: 0, maxPolarAngle: 180 },
    },
  },
};

type Key = string | number;
interface Probe {
  path: Key[];
  at: Schema;
}

/** Every bounded number, list and map in `value`, with the subschema that bounds it. */
function probes(at: Schema, value: unknown, path: Key[] = []): Probe[] {
  if (at.anyOf) {
    const branch = at.anyOf.find((candidate: Schema) => fits(candidate, value));
    return branch ? probes(branch, value, path) : [];
  }
  const found: Probe[] = [];
  if (typeof value === 'number' && (at.minimum !== undefined || at.maximum !== undefined)) found.push({ path, at });
  if (Array.isArray(value)) {
    // Fixed-length tuples ([x, y, z]) are shapes, not limits.
    if (at.maxItems !== undefined && at.minItems !== at.maxItems) found.push({ path, at });
    value.forEach((item, i) => found.push(...probes(at.items, item, [...path, i])));
  } else if (isObject(value)) {
    if (at.maxProperties !== undefined) found.push({ path, at });
    for (const [key, item] of Object.entries(value)) {
      const sub = at.properties?.[key] ?? valuesOf(at);
      if (sub) found.push(...probes(sub, item, [...path, key]));
    }
  }
  return found;
}

function withValue(path: Key[], value: unknown) {
  const copy = structuredClone(sample) as any;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key];
  parent[path.at(-1)!] = value;
  return copy;
}

function valueAt(path: Key[]): any {
  return path.reduce((at: any, key) => at[key], sample);
}

/** The same list or map grown to `size` entries by repeating its last one. */
function grown(path: Key[], size: number) {
  const current = valueAt(path);
  if (Array.isArray(current)) return Array.from({ length: size }, (_, i) => current[Math.min(i, current.length - 1)]);
  const [key, item] = Object.entries(current).at(-1)!;
  return Object.fromEntries(Array.from({ length: size }, (_, i) => [i === 0 ? key : `${key}_${i}`, item]));
}

const warningsAt = (data: unknown, path: Key[], code?: string) =>
  parseScene(data).warnings.filter((w) => w.path === path.join('.') && (!code || w.code === code));

describe('the schema limits are the parser limits', () => {
  // The models list is bounded by what a save accepts, not by the parser.
  const all = probes(schema, sample).filter(({ path }) => path.join('.') !== 'models');

  it('probes every kind of bound', () => {
    expect(all.length).toBeGreaterThan(30);
    expect(all.map(({ path }) => path.join('.'))).toEqual(
      expect.arrayContaining([
        'sceneData.optionBlocks',
        'sceneData.optionBlocks.0.choices.0.effects.0.nodes',
        'sceneData.optionBlocks.1.rules.0.when',
        'models.0.partTransforms',
        'sceneData.projectSettings.camera.fov',
        'sceneData.animationBlocks.0.speed',
      ]),
    );
  });

  it.each(all.map((probe) => [probe.path.join('.'), probe] as const))('%s', (_name, { path, at }) => {
    if (typeof valueAt(path) === 'number') {
      for (const bound of [at.minimum, at.maximum].filter((b) => b !== undefined)) {
        expect(warningsAt(withValue(path, bound), path), `at ${bound}`).toEqual([]);
      }
      if (at.maximum !== undefined) expect(warningsAt(withValue(path, at.maximum + 1), path)).not.toEqual([]);
      if (at.minimum !== undefined) expect(warningsAt(withValue(path, at.minimum - 1), path)).not.toEqual([]);
      return;
    }
    const limit = at.maxItems ?? at.maxProperties;
    expect(warningsAt(withValue(path, grown(path, limit)), path, 'limit_exceeded')).toEqual([]);
    expect(warningsAt(withValue(path, grown(path, limit + 1)), path, 'limit_exceeded')).toHaveLength(1);
  });
});
