/**
 * "Did you mean": the names closest to one a scene gives, for an `unknown_name` warning. Case-insensitive equality
 * first, then Levenshtein distance on lower-cased names; a name too far off is no suggestion.
 */
export interface SuggestOptions {
  /** Suggestions given at most. Default 3. */
  limit: number;
  /**
   * Edit-distance cells one report may compute (shared through the same object across calls), so a scene of many
   * unknown names against a 10,000-node model stays fast; once spent, only case-insensitive matches are suggested.
   */
  budget: { cells: number };
}

/** Names longer than this get only case-insensitive suggestions (part names are short). */
const MAX_FUZZY_LENGTH = 64;

/** Farther than this is no suggestion: at least 2 edits, else half the name. */
const maxSuggestionDistance = (name: string) => Math.max(2, Math.floor(name.length / 2));

/** Levenshtein distance of `a` and `b`, or Infinity once it must exceed `max` (rows past it are not computed). */
function boundedEditDistance(a: string, b: string, max: number, budget: { cells: number }): number {
  if (Math.abs(a.length - b.length) > max) return Infinity;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      rowMin = Math.min(rowMin, current[j]);
    }
    budget.cells -= b.length;
    if (rowMin > max) return Infinity;
    previous = current;
  }
  return previous[b.length];
}

/** Up to `limit` of `candidates` closest to `name`, closest first; ties keep the candidates' order. */
export function suggestNames(name: string, candidates: readonly string[], options: SuggestOptions): string[] {
  const lower = name.toLowerCase();
  const max = maxSuggestionDistance(name);
  const fuzzy = name.length <= MAX_FUZZY_LENGTH;
  const ranked: Array<{ candidate: string; distance: number }> = [];
  for (const candidate of new Set(candidates)) {
    if (candidate === name) continue;
    const other = candidate.toLowerCase();
    if (other === lower) ranked.push({ candidate, distance: -1 });
    else if (fuzzy && options.budget.cells > 0) {
      const distance = boundedEditDistance(lower, other, max, options.budget);
      if (distance <= max) ranked.push({ candidate, distance });
    }
  }
  return ranked
    .sort((x, y) => x.distance - y.distance)
    .slice(0, options.limit)
    .map(({ candidate }) => candidate);
}
