import { WebIO } from '@gltf-transform/core';

/**
 * The two files of a stored model the element may be given (docs/delivery-files.md): the original as uploaded, or the
 * delivery file shoppers get once it is ready. The configurator's suites run on both.
 */
export type ModelFile = 'original' | 'delivery';
export const MODEL_FILES: readonly ModelFile[] = ['original', 'delivery'];

/** Where the fake BFF (fake-bff.mjs) signs its model as each file. */
export const SIGNED_PATHS: Record<ModelFile, string> = {
  original: '/fake/model.glb',
  delivery: '/fake/model.delivery.glb',
};

/** What makes a delivery file: geometry only the element's meshopt decoder reads, quantized attributes. */
const DELIVERY_EXTENSIONS = ['EXT_meshopt_compression', 'KHR_mesh_quantization'];

/** The glTF JSON of a GLB. */
export async function gltfJson(glb: ArrayBuffer) {
  return (await new WebIO().binaryToJSON(new Uint8Array(glb))).json;
}

/** Asserts `glb` is a delivery file: meshopt and quantization required (and WebP, when `webp`). */
export async function assertDeliveryFile(glb: ArrayBuffer, { webp = false } = {}) {
  const required = (await gltfJson(glb)).extensionsRequired ?? [];
  for (const name of [...DELIVERY_EXTENSIONS, ...(webp ? ['EXT_texture_webp'] : [])])
    if (!required.includes(name)) throw new Error(`the delivery file requires ${name}: ${required.join(', ')}`);
}

/**
 * The delivery file of a GLB, made by the server's own makeDeliveryFile in the test runner (`POST /fake/delivery`,
 * fake-bff.mjs); fails with the reason when the server would serve the original instead.
 */
export async function deliveryFileOf(glb: ArrayBuffer): Promise<ArrayBuffer> {
  const response = await fetch('/fake/delivery', { method: 'POST', body: glb });
  if (!response.ok) throw new Error(`no delivery file (${response.status}): ${(await response.json()).message}`);
  return response.arrayBuffer();
}
