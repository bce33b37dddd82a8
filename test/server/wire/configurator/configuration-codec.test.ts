import { describe, expect, it } from 'vitest';
import {
  configurationFieldsFor,
  decodeConfiguration,
  encodeConfiguration,
  MAX_CONFIGURATION_LENGTH,
  parseScene,
  type SavedConfiguration,
} from '#core/wire/configurator/index.js';
import { demoStool } from './demo-stool.js';

/** Saved configurations (docs/scene-format.md, Saved configurations): base64url of UTF-8 JSON, or plain JSON. */
const saved: SavedConfiguration & { projectId: string } = {
  projectId: 'p-1',
  options: { seat: 'walnut', legs: 'brass' },
  fields: { quantity: 2 },
};

describe('encodeConfiguration', () => {
  it('writes base64url without padding of { v: 1, projectId, options, fields }', () => {
    const text = encodeConfiguration(saved);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    const json = Buffer.from(text, 'base64url').toString('utf8');
    expect(JSON.parse(json)).toEqual({ v: 1, ...saved });
  });

  it('leaves out empty fields and keeps non-ASCII ids intact', () => {
    const text = encodeConfiguration({ projectId: 'p-1', options: { sitz: 'Nussbaum ✓' }, fields: {} });
    expect(JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))).toEqual({
      v: 1,
      projectId: 'p-1',
      options: { sitz: 'Nussbaum ✓' },
    });
    expect(decodeConfiguration(text)).toEqual({ projectId: 'p-1', options: { sitz: 'Nussbaum ✓' } });
  });
});

describe('decodeConfiguration', () => {
  it('reads back what encodeConfiguration wrote', () => {
    expect(decodeConfiguration(encodeConfiguration(saved))).toEqual(saved);
  });

  it('takes plain JSON starting with {, projectId and v optional', () => {
    expect(decodeConfiguration('{"options":{"seat":"walnut"}}')).toEqual({ options: { seat: 'walnut' } });
  });

  it('keeps only string choices and number fields: stale entries are for resolveOptions to ignore', () => {
    expect(decodeConfiguration('{"options":{"seat":"walnut","legs":3},"fields":{"quantity":2,"w":"x"}}')).toEqual({
      options: { seat: 'walnut' },
      fields: { quantity: 2 },
    });
  });

  it.each([
    ['an unknown version', Buffer.from(JSON.stringify({ v: 2, projectId: 'p', options: {} })).toString('base64url')],
    [
      'a base64url text without version',
      Buffer.from(JSON.stringify({ projectId: 'p', options: {} })).toString('base64url'),
    ],
    ['plain JSON with an unknown version', '{"v":3,"options":{}}'],
    ['text that is not base64url', 'not a configuration!'],
    ['base64url that is not JSON', Buffer.from('hello').toString('base64url')],
    ['bytes that are not UTF-8', Buffer.from([0xff, 0xfe, 0x7b]).toString('base64url')],
    ['broken JSON', '{"options":'],
    ['JSON that is not an object', Buffer.from('[1,2]').toString('base64url')],
    ['options that are not an object', '{"options":["seat"]}'],
    ['a projectId that is not a string', '{"projectId":5,"options":{}}'],
    ['more than 2,048 characters', `{"options":{"seat":"${'x'.repeat(MAX_CONFIGURATION_LENGTH)}"}}`],
    ['an empty text', ''],
  ])('ignores %s whole', (_case, text) => {
    expect(decodeConfiguration(text)).toBeNull();
  });
});

describe('configurationFieldsFor', () => {
  it('keeps only the number fields the formula reads, clamped as pricing reads them', () => {
    const { scene } = parseScene(demoStool);
    expect(configurationFieldsFor(scene, { quantity: '50', name: 'Ada' })).toEqual({ quantity: 20 });
    expect(configurationFieldsFor(scene, {})).toEqual({ quantity: 1 });
  });
});
