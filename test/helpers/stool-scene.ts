/** What the visitor event and analytics tests share. */

/** The demo stool (docs/scene-format.md), without its model file (the checks never open it). */
export const STOOL_SCENE = {
  optionBlocks: [
    {
      id: 'seat',
      name: 'Seat',
      type: 'swatch',
      choices: [
        { id: 'oak', label: 'Oak', default: true, color: '#c8a165' },
        { id: 'walnut', label: 'Walnut', price: 40, color: '#5b3a29' },
      ],
    },
    {
      id: 'legs',
      name: 'Legs',
      choices: [
        { id: 'steel', label: 'Steel', default: true },
        { id: 'brass', label: 'Brass', price: 25 },
      ],
    },
  ],
  pricingBlocks: [{ id: 'base', label: 'Base price', price: 149 }],
  formFields: [
    { id: 'email', label: 'E-mail', type: 'email', required: true },
    { id: 'quantity', label: 'Quantity', type: 'number', min: 1, max: 20, default: 1 },
  ],
  pricingFormula: [{ op: 'multiply', field: 'quantity', label: 'Quantity' }],
  animationBlocks: [{ id: 'turn', name: 'Turn around', clip: 'Turn', trigger: 'button' }],
  projectSettings: { pricing: { currency: 'EUR', tax: { rate: 0.19, included: true, label: 'VAT' } } },
};
