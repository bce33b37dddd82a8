/** The media ranges of an Accept header with their weights (q), lower-cased. */
function acceptRanges(accept: string): Array<{ range: string; q: number }> {
  return accept.split(',').map((part) => {
    const [range, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    return { range, q: Number.isFinite(q) ? q : 0 };
  });
}

/** The weight Accept gives a media type: its own range, else `type/*`, else `*\/*`, else 0. */
function weightOf(ranges: Array<{ range: string; q: number }>, type: string): number {
  const [major] = type.split('/');
  for (const candidate of [type, `${major}/*`, '*/*']) {
    const found = ranges.find(({ range }) => range === candidate);
    if (found) return found.q;
  }
  return 0;
}

/**
 * Whether Accept weighs `text/html` above `application/json` (docs/share-page.md): a browser
 * navigation gets the share page; `fetch()`, JSON clients and no Accept keep getting JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept || accept === '*/*' || accept === 'application/json') return false;
  const ranges = acceptRanges(accept);
  const html = weightOf(ranges, 'text/html');
  return html > 0 && html > weightOf(ranges, 'application/json');
}
