import type { Scene, SceneWarning } from './types.js';

/**
 * Parses a project's `data` (models, sceneData, saveConfigEnabled) per contract 12.1–12.7 and
 * 12.13. Never throws on owner data: unusable entries are dropped with a warning.
 */
export function parseScene(data: unknown): { scene: Scene; warnings: SceneWarning[] } {
  void data;
  throw new Error('parseScene: not implemented yet');
}
