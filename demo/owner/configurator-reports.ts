import type { Options, Price, SceneWarning } from '../../server/core/wire/configurator/index.js';

/**
 * The answers of the analytics and scene report reads, as contract 12.12 writes them. Local
 * interfaces until the server publishes TypeBox schemas for them in server/core/wire; the
 * price, warning and options shapes are already the shared ones.
 */

/** One UTC day's counters; `totals` has the same counters summed over the range. */
export interface DayCounters {
  views: number;
  sessions: number;
  optionChanges: number;
  submissions: number;
  animations: number;
  arOpens: number;
  saves: number;
}

export interface AnalyticsReport {
  success: true;
  /** YYYY-MM-DD, UTC, inclusive. */
  from: string;
  to: string;
  totals: DayCounters;
  /** Every date of the range, zeros included, oldest first. */
  days: Array<DayCounters & { date: string }>;
  /** `option.changed` counts by choice over the range; `blockName`/`label` null when the block or choice is gone. */
  topChoices: Array<{
    blockId: string;
    blockName: string | null;
    choiceId: string;
    label: string | null;
    count: number;
  }>;
  /** Submissions ÷ sessions over the range, 4 decimals; null without sessions. */
  conversion: number | null;
}

export interface SceneReport {
  success: true;
  revision: number;
  counts: {
    models: number;
    optionBlocks: number;
    choices: number;
    effects: number;
    rules: number;
    animationBlocks: number;
    pricingBlocks: number;
    formulaSteps: number;
    formFields: number;
  };
  warnings: SceneWarning[];
  defaultOptions: Options;
  /** Null when the project has no pricing. */
  defaultPrice: Price | null;
}
