/**
 * The formatting locale (element/README.md, API): the `locale` attribute, else `pricing.locale`, else the
 * page's `<html lang>`, else the browser's. An unusable tag is skipped rather than failing the price.
 */
export function formattingLocale(attribute: string | null, pricingLocale: string | null): string | undefined {
  for (const candidate of [attribute, pricingLocale, document.documentElement.lang, navigator.language]) {
    if (!candidate) continue;
    try {
      return Intl.getCanonicalLocales(candidate)[0];
    } catch {
      // Not a BCP 47 tag (say `en_US`): the next source decides.
    }
  }
  return undefined;
}
