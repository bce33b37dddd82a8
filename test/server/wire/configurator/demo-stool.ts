/** The demo stool project (docs/scene-format.md), as an owner's editor would store its `data`. */
export const demoStool = {
  models: [
    {
      id: 'stool',
      fileName: 'stool.glb',
      deletedParts: ['Footrest'],
      partTransforms: { Leg_1: { rotation: [0, 0, 0.1] } },
      pivotData: { x: 0, y: 0.2, z: 0 },
    },
  ],
  sceneData: {
    optionBlocks: [
      {
        id: 'seat',
        name: 'Seat',
        type: 'swatch',
        targetObjectId: 'stool',
        choices: [
          { id: 'oak', label: 'Oak', default: true, color: '#C8A165' },
          {
            id: 'walnut',
            label: 'Walnut',
            price: 40,
            color: '#5a3a22',
            effects: [{ type: 'material', nodes: ['Seat', 'Backrest'], color: '#5A3A22', roughness: 0.6 }],
          },
        ],
      },
      {
        id: 'legs',
        name: 'Legs',
        type: 'choice',
        choices: [
          { id: 'steel', label: 'Steel', default: true, effects: [{ type: 'variant', name: 'steel' }] },
          { id: 'brass', label: 'Brass', price: 25, effects: [{ type: 'variant', name: 'brass' }] },
        ],
      },
      {
        id: 'backrest',
        name: 'Backrest',
        type: 'toggle',
        choices: [
          {
            id: 'off',
            label: 'Off',
            default: true,
            effects: [{ type: 'visibility', nodes: ['Backrest'], visible: false }],
          },
          { id: 'on', label: 'On', price: 30, effects: [{ type: 'visibility', nodes: ['Backrest'], visible: true }] },
        ],
      },
    ],
    pricingBlocks: [{ id: 'base', label: 'Base price', price: 149 }],
    pricingFormula: [{ op: 'multiply', field: 'quantity', label: 'Quantity' }],
    formFields: [
      { id: 'name', label: 'Name', type: 'text', required: true },
      { id: 'quantity', label: 'Quantity', type: 'number', min: 1, max: 20, default: 1 },
    ],
    animationBlocks: [{ id: 'turn', name: 'Turn around', clip: 'Turn', trigger: 'button' }],
    projectSettings: { pricing: { currency: 'EUR', tax: { rate: 0.19, included: true, label: 'VAT' } } },
  },
  saveConfigEnabled: true,
};

/** A deep copy to change one thing in. */
export const stoolCopy = (): any => structuredClone(demoStool);
