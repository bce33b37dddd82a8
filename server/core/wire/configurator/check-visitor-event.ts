import type { Scene } from './types.js';
import type { VisitorEvent, VisitorEventError } from './visitor-events.js';

/**
 * Checks one visitor event against the parsed scene of the current revision (12.10): its type,
 * the ids it names and its `data` fields. Answers the stored form (only the listed fields) or why it is left out.
 */
export function checkVisitorEvent(
  scene: Scene,
  event: VisitorEvent,
): { ok: true; data: Record<string, unknown> } | { ok: false; error: VisitorEventError; message: string } {
  void scene;
  void event;
  throw new Error('checkVisitorEvent: not implemented yet');
}
