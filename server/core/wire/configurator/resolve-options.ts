import type { Options, ResolvedOptions, Scene } from './types.js';

/** Applies defaults and rules (12.4) to the requested selections, in one pass in block order. */
export function resolveOptions(scene: Scene, requested: Record<string, unknown> | undefined): ResolvedOptions {
  void scene;
  void requested;
  throw new Error('resolveOptions: not implemented yet');
}

export type { Options };
