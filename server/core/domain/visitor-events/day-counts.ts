import type { VisitorEventType } from '../../wire/configurator/index.js';

/** What a call's accepted events add to their day's counters (docs/api.md, Analytics). */
export interface VisitorDayCounts {
  views: number;
  optionChanges: number;
  animations: number;
  arOpens: number;
  saves: number;
  /** `option.changed` per chosen choice. */
  choices: Array<{ blockId: string; choiceId: string; count: number }>;
}

/** Sums a call's accepted events by counter; `price.calculated` and `viewer.screenshot` have none. */
export function visitorDayCounts(events: ReadonlyArray<{ type: VisitorEventType; data: Record<string, unknown> }>) {
  const counts: VisitorDayCounts = { views: 0, optionChanges: 0, animations: 0, arOpens: 0, saves: 0, choices: [] };
  const choices = new Map<string, VisitorDayCounts['choices'][number]>();
  for (const { type, data } of events) {
    if (type === 'view') counts.views++;
    else if (type === 'animation.triggered') counts.animations++;
    else if (type === 'ar.opened') counts.arOpens++;
    else if (type === 'configuration.saved') counts.saves++;
    else if (type === 'option.changed') {
      counts.optionChanges++;
      const blockId = String(data.blockId);
      const choiceId = String(data.choiceId);
      // JSON of the pair: ids may hold any character.
      const key = JSON.stringify([blockId, choiceId]);
      const entry = choices.get(key);
      if (entry) entry.count++;
      else choices.set(key, { blockId, choiceId, count: 1 });
    }
  }
  counts.choices = [...choices.values()];
  return counts;
}
