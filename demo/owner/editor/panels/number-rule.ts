/** Reads a number typed by the owner against its rule; the message names the rule so the owner can fix it. */
export type NumberReading = { ok: true; value: number | undefined } | { ok: false; message: string };

const format = (n: number) => n.toLocaleString('en');

export interface NumberRule {
  /** What the number is, capitalised: "Price". */
  name: string;
  min: number;
  max: number;
  /** Whole numbers only. */
  integer?: boolean;
  /** The bound itself is not allowed (a step must be above 0). */
  minExclusive?: boolean;
}

export function ruleText(rule: NumberRule): string {
  const kind = rule.integer ? 'a whole number' : 'a number';
  if (!Number.isFinite(rule.min) && !Number.isFinite(rule.max)) return `${rule.name} must be ${kind}`;
  if (!Number.isFinite(rule.max)) return `${rule.name} must be ${kind} of at least ${format(rule.min)}`;
  if (rule.minExclusive)
    return `${rule.name} must be ${kind} above ${format(rule.min)} and at most ${format(rule.max)}`;
  return `${rule.name} must be ${kind} between ${format(rule.min)} and ${format(rule.max)}`;
}

/** Empty text is "no value" (the key is removed); anything else must be a finite number within the rule. */
export function readNumberText(text: string, rule: NumberRule): NumberReading {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: undefined };
  const value = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/.test(trimmed) ? Number(trimmed) : NaN;
  const below = rule.minExclusive ? value <= rule.min : value < rule.min;
  if (!Number.isFinite(value) || below || value > rule.max || (rule.integer && !Number.isInteger(value))) {
    return { ok: false, message: ruleText(rule) };
  }
  return { ok: true, value };
}
