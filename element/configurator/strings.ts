/**
 * The configurator's texts (options, price, saving). Only the configurator chunk reads them, so
 * they travel in that chunk and the loader stays within its 15 KB.
 */
export const CONFIGURATOR_STRINGS = {
  choiceUnavailable: '{label} (unavailable)',
  priceTotal: 'Total',
  priceTaxIncluded: 'Includes {label} {amount}',
  priceLines: 'Price details',
  summaryTotal: 'Total: {total}',
  saveButton: 'Save this configuration',
  saveLink: 'Link to this configuration',
  saveCopied: 'Link copied',
  saveCopyFailed: 'Copy the selected link to keep this configuration.',
};

export type ConfiguratorStrings = typeof CONFIGURATOR_STRINGS;
