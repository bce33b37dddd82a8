/**
 * How the console names what the library API answers in ids (licence tiers and filters, each
 * library's search status), in the words an owner uses.
 */
export const LICENSE_TIER_WORDS: Record<string, string> = {
  allowed: 'Free for commercial use',
  conditions: 'Free for commercial use with credit',
  blocked: 'Not for commercial use',
};

/** The search's licence filter values, as the licences are usually called. */
export const LICENSE_FILTER_WORDS: Array<[string, string]> = [
  ['cc0', 'CC0 (public domain)'],
  ['by', 'CC BY (credit the author)'],
  ['by-sa', 'CC BY-SA (credit, share alike)'],
  ['by-nd', 'CC BY-ND (credit, no changes)'],
  ['by-nc', 'CC BY-NC (non-commercial)'],
  ['by-nc-sa', 'CC BY-NC-SA (non-commercial)'],
  ['by-nc-nd', 'CC BY-NC-ND (non-commercial)'],
];

/** One library's part of a search answer, as a sentence part ("12 of 40 found", "did not answer"). */
export function searchStatusWords(status: { status: string; count: number; total?: number }): string {
  if (status.status === 'skipped') return 'not searched';
  if (status.status === 'error') return 'did not answer';
  const more = status.total !== undefined && status.total > status.count && status.status !== 'exhausted';
  return more ? `${status.count} of ${status.total} found` : `${status.count} found`;
}
