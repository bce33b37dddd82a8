import { describe, expect, it } from 'vitest';
import {
  buildPublicProject,
  etagMatches,
  modelStorageKey,
  modelUrls,
  publicEtag,
  referencedAssetIds,
} from '#core/domain/public-payload.js';
import type { ProjectData } from '#core/domain/scene.js';

const WS = '11111111-1111-4111-8111-111111111111';
const PROJECT = '22222222-2222-4222-8222-222222222222';
const ASSET = '33333333-3333-4333-8333-333333333333';
const OTHER_ASSET = '44444444-4444-4444-8444-444444444444';
const files = {
  workspaceId: WS,
  projectId: PROJECT,
  assetKeys: new Map([[ASSET, `workspaces/${WS}/assets/${ASSET}.glb`]]),
};
const sign = (key: string) => `signed:${key}`;
const meta = { id: PROJECT, name: 'Chair', type: 'configurator' };

const data = (extra: Partial<ProjectData> = {}): ProjectData => ({
  models: [],
  sceneData: {},
  renderQuality: 'high',
  saveConfigEnabled: true,
  ...extra,
});

describe('buildPublicProject', () => {
  it('removes owner credentials from projectSettings at any depth and keeps the rest', () => {
    const project = buildPublicProject(
      meta,
      data({
        sceneData: {
          projectSettings: {
            brandColor: '#ff0000',
            smtpHost: 'smtp.example.com',
            smtpPassword: 'x',
            emailAdminAddress: 'owner@example.com',
            webhookSecret: 's',
            webhookUrl: 'https://hooks.example.com',
            lighting: { intensity: 2, shopifyToken: 'tok' },
            integrations: [{ woocommerceKey: 'ck_1', label: 'shop' }],
            ar: { enabled: true },
          },
        },
      }),
      { signedModelLimit: 20, files, sign, cartAvailable: true },
    );
    expect(project.data.sceneData.projectSettings).toEqual({
      brandColor: '#ff0000',
      lighting: { intensity: 2 },
      integrations: [{ label: 'shop' }],
      ar: { enabled: true },
    });
  });

  it('defaults the sceneData arrays and omits an absent camera', () => {
    const project = buildPublicProject(
      meta,
      data({ sceneData: { optionBlocks: [{ id: 'o1' }], formFields: 'junk' as unknown as unknown[] } }),
      { signedModelLimit: 20, files, sign, cartAvailable: true },
    );
    expect(project.data.sceneData).toEqual({
      optionBlocks: [{ id: 'o1' }],
      projectSettings: {},
      formFields: [],
      animationBlocks: [],
      pricingBlocks: [],
      pricingFormula: [],
    });
    expect('camera' in project.data).toBe(false);
    expect(project.data).toMatchObject({ renderQuality: 'high', saveConfigEnabled: true });
  });

  it('normalises model vectors and the camera to {x,y,z}', () => {
    const project = buildPublicProject(
      meta,
      data({
        models: [
          { id: 'a', fileName: 'a.glb', position: [1, 2, 3], rotation: { x: 0.5, y: 0, z: 0 }, scale: [2, 2, 2] },
          { id: 'b', fileName: 'b.glb', transform: { position: [4, 5, 6], rotation: [0, 1, 0] } },
          { id: 'c', fileName: 'c.glb' },
        ],
        camera: { position: [0, 1, 5], target: { x: 0, y: 0.5, z: 0 }, fov: 40 },
      }),
      { signedModelLimit: 20, files, sign, cartAvailable: true },
    );
    const [a, b, c] = project.data.models;
    expect(a).toMatchObject({
      position: { x: 1, y: 2, z: 3 },
      rotation: { x: 0.5, y: 0, z: 0 },
      scale: { x: 2, y: 2, z: 2 },
    });
    expect(b).toMatchObject({
      position: { x: 4, y: 5, z: 6 },
      rotation: { x: 0, y: 1, z: 0 },
      scale: { x: 1, y: 1, z: 1 },
      transform: { position: [4, 5, 6], rotation: [0, 1, 0] },
    });
    // Every field the interface lists without a condition is there, empty when nothing is stored.
    expect(c).toEqual({
      id: 'c',
      fileName: 'c.glb',
      transform: {},
      position: { x: 0, y: 0, z: 0 },
      rotation: { x: 0, y: 0, z: 0 },
      scale: { x: 1, y: 1, z: 1 },
      partTransforms: {},
      deletedParts: [],
      pivotData: {},
    });
    expect(project.data.camera).toEqual({ position: { x: 0, y: 1, z: 5 }, target: { x: 0, y: 0.5, z: 0 } });
  });

  it('shows only the interface fields of a model', () => {
    const [model] = buildPublicProject(
      meta,
      data({
        models: [
          {
            id: 'a',
            fileName: 'a.glb',
            assetId: ASSET,
            secretNote: 'owner only',
            partTransforms: { p: 1 },
            deletedParts: ['x'],
            pivotData: { y: 1 },
          },
        ],
      }),
      { signedModelLimit: 20, files, sign, cartAvailable: true },
    ).data.models;
    // In the order of the interface's model table.
    expect(Object.keys(model)).toEqual([
      'id',
      'fileName',
      'url',
      'assetId',
      'transform',
      'position',
      'rotation',
      'scale',
      'partTransforms',
      'deletedParts',
      'pivotData',
    ]);
    expect(model).toMatchObject({ partTransforms: { p: 1 }, deletedParts: ['x'], pivotData: { y: 1 }, transform: {} });
  });

  it('signs, of the first models up to the limit, those that have a file', () => {
    const models = [
      { id: 'none', fileName: 'n.glb' },
      ...Array.from({ length: 4 }, (_, i) => ({
        id: `u${i}`,
        fileName: 'x.glb',
        uploadedModelPath: `models/${i}.glb`,
      })),
    ];
    const options = { signedModelLimit: 3, files, sign, cartAvailable: true };
    const project = buildPublicProject(meta, data({ models }), options);
    expect(project.data.models.map((m) => m.url)).toEqual([
      undefined,
      `signed:workspaces/${WS}/projects/${PROJECT}/models/0.glb`,
      `signed:workspaces/${WS}/projects/${PROJECT}/models/1.glb`,
      undefined,
      undefined,
    ]);
  });
});

describe('model files', () => {
  it('serves assets of the same workspace and safe project uploads only', () => {
    expect(modelStorageKey({ assetId: ASSET }, files)).toBe(`workspaces/${WS}/assets/${ASSET}.glb`);
    expect(modelStorageKey({ assetId: OTHER_ASSET }, files)).toBeNull();
    expect(modelStorageKey({ uploadedModelPath: '../../other/secret.glb' }, files)).toBeNull();
    expect(modelStorageKey({ uploadedModelPath: '/etc/passwd' }, files)).toBeNull();
    expect(modelStorageKey({ uploadedModelPath: 'models/chair.glb' }, files)).toBe(
      `workspaces/${WS}/projects/${PROJECT}/models/chair.glb`,
    );
    expect(referencedAssetIds([{ assetId: ASSET }, { assetId: 'not-a-uuid' }, { assetId: ASSET }])).toEqual([ASSET]);
  });

  it('gives urls for the requested models that have a file, any position', () => {
    const models = Array.from({ length: 30 }, (_, i) => ({
      id: `m${i}`,
      fileName: 'x.glb',
      uploadedModelPath: `m${i}.glb`,
    }));
    models.push({ id: 'nofile', fileName: 'x.glb', uploadedModelPath: '' });
    expect(modelUrls(data({ models }), ['m29', 'nofile', 'unknown'], files, sign)).toEqual({
      m29: `signed:workspaces/${WS}/projects/${PROJECT}/m29.glb`,
    });
  });
});

describe('ETag', () => {
  const base = {
    projectId: PROJECT,
    projectRevision: 1,
    shareRevision: 1,
    assetsRevision: 1,
    signingWindow: 20000,
    signedModelLimit: 20,
    cartAvailable: true,
  };

  it('is strong and changes with every input', () => {
    const etag = publicEtag(base);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(publicEtag({ ...base })).toBe(etag);
    for (const change of [
      { projectRevision: 2 },
      { shareRevision: 2 },
      { assetsRevision: 2 },
      { signingWindow: 20001 },
      { signedModelLimit: 5 },
      { cartAvailable: false },
    ]) {
      expect(publicEtag({ ...base, ...change })).not.toBe(etag);
    }
  });

  it('matches If-None-Match lists, weak forms and *', () => {
    const etag = publicEtag(base);
    expect(etagMatches(etag, etag)).toBe(true);
    expect(etagMatches(`"other", W/${etag}`, etag)).toBe(true);
    expect(etagMatches('*', etag)).toBe(true);
    expect(etagMatches('"other"', etag)).toBe(false);
    expect(etagMatches(undefined, etag)).toBe(false);
  });
});
