import type { Choice, Options, Price, Scene } from './types.js';

/** The price of a configuration (12.5), or null for a project without pricing. `fields`: form values by field id. */
export function computePrice(scene: Scene, options: Options, fields: Record<string, unknown>): Price | null {
  void scene;
  void options;
  void fields;
  throw new Error('computePrice: not implemented yet');
}

/** A choice's price in minor units (what its `+€40.00` delta shows), or null without one. */
export function choiceDelta(scene: Scene, choice: Choice): number | null {
  void scene;
  void choice;
  throw new Error('choiceDelta: not implemented yet');
}
