import type { SceneSettings } from './types.js';

/**
 * The defaults of docs/scene-format.md, Project settings: what the settings parser fills in, and what a viewer made
 * without a parsed scene shows. A module of its own: the viewer's chunk takes the table, not the parser.
 */
export const DEFAULT_SETTINGS: SceneSettings = {
  pricing: {
    currency: null,
    decimals: 2,
    locale: null,
    showPrices: true,
    showDeltas: true,
    tax: null,
    rounding: 'half-up',
  },
  branding: { primaryColor: '#1f3a5f', logoUrl: null, companyName: null },
  lighting: {
    environment: 'room',
    environmentIntensity: 1,
    exposure: 1,
    keyLight: 1.5,
    shadows: 'auto',
    shadowOpacity: 0.25,
  },
  display: { background: '#ffffff', autoRotate: false, showOptions: true, showForm: true },
  camera: {
    fov: 45,
    minDistance: null,
    maxDistance: null,
    minPolarAngle: 0,
    maxPolarAngle: 180,
    enablePan: true,
    enableZoom: true,
    fit: true,
  },
  ar: { enabled: true, placement: 'floor', scale: 'auto' },
  cart: { enabled: false, label: 'Add to cart', skuBase: null, skuSeparator: '-', quantity: true, action: null },
  notifications: { customerCopy: false },
};
