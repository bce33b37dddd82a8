/**
 * The configurator's texts (options, price, saving, the cart). Only the configurator chunk reads them, so
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
  cartQuantity: 'Quantity',
  cartFewer: 'One fewer',
  cartMore: 'One more',
  cartAdding: 'Adding…',
  cartAdded: 'Added',
  cartAddedStatus: 'Added to your cart.',
  cartPreviewNote: 'Preview: nothing is added to a cart',
  cartWaiting: 'The shop is busy. Trying again in {seconds} s…',
  cartTooMany: 'Too many tries. Please wait {seconds} s, then try again.',
  cartOffline: 'The shop could not be reached. Check your connection and try again.',
  cartFailed: 'This could not be added to your cart. Please try again.',
  cartInvalid: 'This configuration could not be added ({reason}).',
  cartDisabled: 'This product cannot be added to a cart at the moment.',
  cartNotConfigured: 'The cart of this shop is not set up yet, so this product cannot be added.',
  cartUnavailable: 'This product is no longer available.',
};

export type ConfiguratorStrings = typeof CONFIGURATOR_STRINGS;
