/**
 * The demo stool's pricing (docs/scene-format.md) as a project's scene data, without its model file: a base price,
 * priced choices, a rule, a quantity formula, VAT included. What the request-price and scene-report tests share.
 */
export const PRICED_STOOL = {
  formFields: [
    { id: 'name', label: 'Full name', type: 'text', required: true },
    { id: 'email', label: 'E-mail address', type: 'email', required: true },
    { id: 'quantity', label: 'Quantity', type: 'number', min: 1, max: 20, default: 1 },
  ],
  optionBlocks: [
    {
      id: 'seat',
      name: 'Seat',
      type: 'swatch',
      choices: [
        { id: 'oak', label: 'Oak', default: true, color: '#c8a165' },
        { id: 'walnut', label: 'Walnut', price: 40, sku: 'SEAT-WAL', color: '#5c4033' },
      ],
    },
    {
      id: 'legs',
      name: 'Legs',
      choices: [
        { id: 'steel', label: 'Steel', default: true },
        { id: 'brass', label: 'Brass', price: 25 },
      ],
      // Brass legs are not offered with a walnut seat.
      rules: [{ when: { seat: 'walnut' }, disable: ['brass'] }],
    },
  ],
  pricingBlocks: [{ id: 'base', label: 'Base price', price: 149 }],
  pricingFormula: [{ op: 'multiply', field: 'quantity', label: 'Quantity' }],
  projectSettings: {
    emailAdminAddress: 'sales@stool.example',
    pricing: { currency: 'EUR', tax: { rate: 0.19, included: true, label: 'VAT' } },
  },
};
