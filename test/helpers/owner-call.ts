import { expect } from 'vitest';
import { demoStoolGlb } from '../../scripts/start/demo-model.js';

/**
 * An owner's API call that must succeed: JSON bodies as JSON, FormData as multipart, the
 * person's headers; the parsed answer. For end-to-end tests that set a scene up through the API.
 */
export function ownerCaller(baseUrl: () => string, headers: () => Record<string, string>) {
  return async function ownerCall<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const isForm = body instanceof FormData;
    const res = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: { ...headers(), ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return res.json() as Promise<T>;
  };
}

/** What a test's shared stool project carries besides its one model. */
export interface StoolProjectOptions {
  name: string;
  sceneData: Record<string, unknown>;
  camera?: { position: { x: number; y: number; z: number }; target: { x: number; y: number; z: number } };
}

/**
 * A shared project whose one model is the demo stool, uploaded through POST /assets, with the
 * given name, scene data and camera; its share enabled. The ids a share link needs.
 */
export async function sharedStoolProject(
  ownerCall: ReturnType<typeof ownerCaller>,
  options: StoolProjectOptions,
): Promise<{ projectId: string; token: string }> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(await demoStoolGlb())], { type: 'model/gltf-binary' }), 'stool.glb');
  const { asset } = await ownerCall('POST', '/assets', form);
  const { project } = await ownerCall('POST', '/projects', {
    name: options.name,
    type: 'configurator',
    data: {
      models: [
        {
          id: 'stool',
          fileName: asset.fileName,
          assetId: asset.id,
          position: [0, 0, 0],
          rotation: [0, 0, 0],
          scale: [1, 1, 1],
        },
      ],
      sceneData: options.sceneData,
      ...(options.camera ? { camera: options.camera } : {}),
    },
  });
  const { settings } = await ownerCall('PUT', `/projects/${project.id}/share`, { isEnabled: true });
  return { projectId: project.id as string, token: settings.shareToken as string };
}
