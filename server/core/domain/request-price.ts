import { computePrice, resolveOptions, type Price, type Scene } from '../wire/configurator/index.js';

/**
 * A request's price (docs/api.md, Submit): the server's figure, stored with the request and shown
 * everywhere, beside what the visitor's page said it was.
 */

/** The server's price plus the requested blocks whose selection did not count (the block took its default). */
export type StoredPrice = Price & { ignored: string[] };

/** What the visitor's page showed: the total in minor units and its currency, as sent. */
export interface ClientPrice {
  total: number;
  currency: string | null;
}

/**
 * Prices a submit against the scene the share checks saw: the requested selections through the
 * option rules, and the form's number fields the formula may read. Null without pricing.
 */
export function priceRequest(
  scene: Scene,
  selectedOptions: Record<string, unknown>,
  formData: Record<string, unknown>,
): StoredPrice | null {
  const { options, ignored } = resolveOptions(scene, selectedOptions);
  const fields = Object.fromEntries(
    scene.numberFields.filter((field) => field.id in formData).map((field) => [field.id, formData[field.id]]),
  );
  const price = computePrice(scene, options, fields);
  return price && { ...price, ignored };
}

/** True when the page showed another total or currency than the server computed; false when either is missing. */
export function isPriceMismatch(price: StoredPrice | null, clientPrice: ClientPrice | null): boolean {
  if (!price || !clientPrice) return false;
  return price.total !== clientPrice.total || price.currency !== clientPrice.currency;
}
