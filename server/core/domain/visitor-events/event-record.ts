import { computePrice, resolveOptions, type Scene, type VisitorEventType } from '../../wire/configurator/index.js';

/** An accepted event as the page's `data` was checked (`checkVisitorEvent`'s stored form). */
export interface CheckedVisitorEvent {
  type: VisitorEventType;
  /** The kept `at` (receive-time.ts). */
  at: string;
  data: Record<string, unknown>;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const size = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * A visitor event as recorded and delivered (docs/api.md, Visitor events: the table's webhook `data`): names and
 * labels from the stored project, and for `price.calculated` the server's price next to the page's total.
 */
export function visitorEventRecord(scene: Scene, sessionId: string, event: CheckedVisitorEvent) {
  const { at, data } = event;
  switch (event.type) {
    case 'option.changed': {
      const block = scene.optionBlocks.find((b) => b.id === data.blockId);
      const choice = block?.choices.find((c) => c.id === data.choiceId);
      return {
        sessionId,
        at,
        blockId: data.blockId,
        blockName: block?.name ?? null,
        choiceId: data.choiceId,
        choiceLabel: choice?.label ?? null,
        previousChoiceId: data.previousChoiceId ?? null,
        source: data.source,
        options: record(data.options),
      };
    }
    case 'price.calculated': {
      const options = record(data.options);
      const fields = record(data.fields);
      const price = computePrice(scene, resolveOptions(scene, options).options, fields);
      return { sessionId, at, options, fields, price, clientTotal: size(data.total) };
    }
    case 'viewer.screenshot':
      return { sessionId, at, width: size(data.width), height: size(data.height) };
    case 'animation.triggered': {
      const animation = scene.animations.find((a) => a.id === data.animationId);
      return {
        sessionId,
        at,
        animationId: text(data.animationId),
        animationName: animation?.name ?? null,
        trigger: data.trigger,
      };
    }
    default:
      return { sessionId, at };
  }
}
