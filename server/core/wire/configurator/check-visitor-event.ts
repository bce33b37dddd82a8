import { isRecord, setOwn, type Json } from './owner-values.js';
import type { Scene } from './types.js';
import {
  VISITOR_EVENT_LIMITS,
  VISITOR_EVENT_TYPES,
  type VisitorEvent,
  type VisitorEventError,
} from './visitor-events.js';

type Check = { ok: true; data: Record<string, unknown> } | { ok: false; error: VisitorEventError; message: string };

const refuse = (error: VisitorEventError, message: string): Check => ({ ok: false, error, message });
const MAX_SCREENSHOT_SIDE = 16_384;
const CURRENCY = /^[A-Z]{3}$/;

/** Checks a block and choice against the scene; `null` answers a valid pair. */
function checkChoice(scene: Scene, blockId: unknown, choiceId: unknown, what: string): Check | null {
  if (typeof blockId !== 'string') return refuse('invalid_event', `${what}: a block id must be a string.`);
  if (typeof choiceId !== 'string') return refuse('invalid_event', `${what}: a choice id must be a string.`);
  const block = scene.optionBlocks.find((entry) => entry.id === blockId);
  if (!block) return refuse('unknown_block', `${what}: the project has no option block "${blockId}".`);
  if (!block.choices.some((choice) => choice.id === choiceId)) {
    return refuse('unknown_choice', `${what}: block "${blockId}" has no choice "${choiceId}".`);
  }
  return null;
}

/** `options` as the page sends them: every entry an existing block and choice. */
function checkOptions(scene: Scene, value: unknown): { options: Record<string, string> } | Check {
  if (!isRecord(value)) return refuse('invalid_event', 'options must be an object of block id to choice id.');
  const options: Record<string, string> = {};
  for (const [blockId, choiceId] of Object.entries(value)) {
    const problem = checkChoice(scene, blockId, choiceId, 'options');
    if (problem) return problem;
    setOwn(options, blockId, choiceId as string);
  }
  return { options };
}

function optionChanged(scene: Scene, data: Json): Check {
  const problem =
    checkChoice(scene, data.blockId, data.choiceId, 'option.changed') ??
    (data.previousChoiceId === null || data.previousChoiceId === undefined
      ? null
      : checkChoice(scene, data.blockId, data.previousChoiceId, 'previousChoiceId'));
  if (problem) return problem;
  if (data.source !== 'visitor' && data.source !== 'api')
    return refuse('invalid_event', 'source must be visitor or api.');
  const checked = checkOptions(scene, data.options);
  if ('ok' in checked) return checked;
  const { blockId, choiceId, source } = data;
  return { ok: true, data: { blockId, choiceId, previousChoiceId: data.previousChoiceId ?? null, source, ...checked } };
}

function priceCalculated(scene: Scene, data: Json): Check {
  if (!scene.hasPricing) return refuse('invalid_event', 'price.calculated: this project has no pricing.');
  const checked = checkOptions(scene, data.options ?? {});
  if ('ok' in checked) return checked;
  if (data.fields !== undefined && !isRecord(data.fields)) return refuse('invalid_event', 'fields must be an object.');
  // Only the number fields pricing reads are kept; other answers are not the page's to report here.
  const fields: Record<string, number> = {};
  for (const [id, value] of Object.entries(isRecord(data.fields) ? data.fields : {})) {
    if (typeof value !== 'number' || !Number.isFinite(value))
      return refuse('invalid_event', `fields.${id} must be a number.`);
    if (scene.numberFields.some((field) => field.id === id)) setOwn(fields, id, value);
  }
  if (typeof data.total !== 'number' || !Number.isSafeInteger(data.total)) {
    return refuse('invalid_event', 'total must be an integer amount in minor units.');
  }
  const currency = data.currency ?? null;
  if (currency !== null && (typeof currency !== 'string' || !CURRENCY.test(currency))) {
    return refuse('invalid_event', 'currency must be an ISO 4217 code or null.');
  }
  return { ok: true, data: { options: checked.options, fields, total: data.total, currency } };
}

function screenshot(data: Json): Check {
  const kept: Record<string, number> = {};
  for (const side of ['width', 'height'] as const) {
    const value = data[side];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_SCREENSHOT_SIDE) {
      return refuse('invalid_event', `${side} must be a whole number of pixels from 1 to ${MAX_SCREENSHOT_SIDE}.`);
    }
    kept[side] = value;
  }
  return { ok: true, data: kept };
}

function animationTriggered(scene: Scene, data: Json): Check {
  if (typeof data.animationId !== 'string') return refuse('invalid_event', 'animationId must be a string.');
  if (!scene.animations.some((animation) => animation.id === data.animationId)) {
    return refuse('unknown_animation', `The project has no animation "${data.animationId}".`);
  }
  if (data.trigger !== 'button' && data.trigger !== 'choice')
    return refuse('invalid_event', 'trigger must be button or choice.');
  return { ok: true, data: { animationId: data.animationId, trigger: data.trigger } };
}

/** The size of `data` as UTF-8 JSON; Infinity when it is not JSON at all. */
function jsonBytes(data: unknown): number {
  try {
    return new TextEncoder().encode(JSON.stringify(data)).length;
  } catch {
    return Infinity;
  }
}

/**
 * Checks one visitor event against the current scene (docs/api.md, Visitor events); answers its stored form or why
 * it is left out. `at` and the session id are the server's to check.
 */
export function checkVisitorEvent(
  scene: Scene,
  event: VisitorEvent,
): { ok: true; data: Record<string, unknown> } | { ok: false; error: VisitorEventError; message: string } {
  const type = isRecord(event) ? event.type : undefined;
  if (!(VISITOR_EVENT_TYPES as readonly unknown[]).includes(type)) {
    return refuse('unknown_type', `Unknown event type; expected one of ${VISITOR_EVENT_TYPES.join(', ')}.`);
  }
  const data = event.data ?? {};
  if (!isRecord(data)) return refuse('invalid_event', 'data must be an object.');
  if (jsonBytes(data) > VISITOR_EVENT_LIMITS.dataBytes) {
    return refuse('invalid_event', `data is over ${VISITOR_EVENT_LIMITS.dataBytes} bytes as JSON.`);
  }
  switch (type) {
    case 'option.changed':
      return optionChanged(scene, data);
    case 'price.calculated':
      return priceCalculated(scene, data);
    case 'viewer.screenshot':
      return screenshot(data);
    case 'animation.triggered':
      return animationTriggered(scene, data);
    default:
      // view, ar.opened, configuration.saved: nothing in `data` is kept.
      return { ok: true, data: {} };
  }
}
