import type { Object3D } from 'three';
import { GLTFExporter } from 'three/addons/exporters/GLTFExporter.js';

/**
 * The configured scene as a GLB for AR (element/README.md, Files): the model roots, not the three Scene, which
 * would add the lights and the shadow ground. Loaded lazily so the exporter never weighs on the viewer chunk.
 */
export async function exportConfigured(roots: Object3D[]): Promise<Blob> {
  const glb = await new GLTFExporter().parseAsync(roots, {
    binary: true,
    onlyVisible: true,
    // Copied variant mappings would be written with stale material indices.
    includeCustomExtensions: false,
  });
  return new Blob([glb as ArrayBuffer], { type: 'model/gltf-binary' });
}
