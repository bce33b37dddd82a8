import type { Object3D } from 'three';
import { GLTFExporter } from 'three/addons/exporters/GLTFExporter.js';

/**
 * The configured scene as a binary glTF for AR (contract 12.9): the model roots as an array (the
 * three Scene would add the lights and the shadow ground), only what is visible, each mesh with
 * its current material. Custom extensions stay off: the copied variant mappings would be written
 * with stale material indices. Loaded lazily: the exporter never weighs on the viewer chunk.
 */
export async function exportConfigured(roots: Object3D[]): Promise<Blob> {
  const glb = await new GLTFExporter().parseAsync(roots, {
    binary: true,
    onlyVisible: true,
    includeCustomExtensions: false,
  });
  return new Blob([glb as ArrayBuffer], { type: 'model/gltf-binary' });
}
