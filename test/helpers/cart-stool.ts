/**
 * A stool with SKUs on its choices, priced in euros without tax, its cart switched on with `cart` on top
 * (docs/cart.md): what the cart's server and end-to-end tests share. `brass` is the brass legs' price.
 */
export function cartStoolScene(cart: Record<string, unknown> = {}, brass = 25) {
  return {
    optionBlocks: [
      {
        id: 'seat',
        name: 'Seat',
        choices: [
          { id: 'oak', label: 'Oak', default: true, sku: 'OAK' },
          { id: 'walnut', label: 'Walnut', price: 40, sku: 'WAL' },
        ],
      },
      {
        id: 'legs',
        name: 'Legs',
        choices: [
          { id: 'steel', label: 'Steel', default: true, sku: 'STL' },
          { id: 'brass', label: 'Brass', price: brass, sku: 'BRS' },
        ],
      },
    ],
    pricingBlocks: [{ id: 'base', label: 'Base price', price: 149 }],
    projectSettings: { pricing: { currency: 'EUR' }, cart: { enabled: true, skuBase: 'STOOL', ...cart } },
  };
}
