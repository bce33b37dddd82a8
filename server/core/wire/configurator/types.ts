/**
 * The configurator as docs/scene-format.md defines it, after parsing: what the element draws and
 * prices, what submit prices and what the scene report counts. Types only, no Node imports.
 */

export type WarningCode =
  | 'invalid_type'
  | 'missing_field'
  | 'invalid_value'
  | 'duplicate_id'
  | 'unknown_reference'
  | 'unsupported'
  | 'limit_exceeded'
  | 'deleted_part'
  | 'too_many_warnings'
  | 'unknown_name'
  | 'not_checked';

/** An owner entry the parser dropped or corrected; `path` is dotted with indexes (docs/scene-format.md, Warnings). */
export interface SceneWarning {
  path: string;
  code: WarningCode;
  message: string;
  /** `unknown_name` only: up to 3 names of the same kind from the model's outline, closest first. */
  suggestions?: string[];
}

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/** An omitted component keeps the node's own value (docs/scene-format.md, Part transforms). */
export type PartialVec3 = Partial<Vec3>;

export interface PartTransform {
  position?: PartialVec3;
  /** Radians, Euler XYZ. */
  rotation?: PartialVec3;
  scale?: PartialVec3;
}

export interface SceneModel {
  id: string;
  /** Node name → transform replacing the node's local TRS (docs/scene-format.md, Part transforms). */
  partTransforms: Record<string, PartTransform>;
  /** Node names removed with their subtrees at load. */
  deletedParts: string[];
  /** The model's pivot; null when the model's transform is a 16-number matrix (pivot ignored). */
  pivot: Vec3 | null;
  /** Node name → pivot in the part's local space, for partTransforms and transform effects. */
  partPivots: Record<string, Vec3>;
}

/** `model`: the model id the effect applies to; null means every model. */
export type Effect =
  | {
      type: 'material';
      model: string | null;
      /** Exactly one of `material` (a material name) or `nodes` (node names). */
      material?: string;
      nodes?: string[];
      use?: string;
      /** `#rrggbb`, sRGB, lower case (the parser expands `#rgb`). */
      color?: string;
      roughness?: number;
      metalness?: number;
      opacity?: number;
      /** https image URL. */
      map?: string;
    }
  | { type: 'visibility'; model: string | null; nodes?: string[]; visible: boolean }
  | { type: 'variant'; model: string | null; name: string }
  | {
      type: 'transform';
      model: string | null;
      nodes: string[];
      position?: PartialVec3;
      rotation?: PartialVec3;
      scale?: PartialVec3;
    };

export interface Choice {
  id: string;
  label: string;
  /** Major units of the project currency as the owner wrote it; null: no price line. */
  price: number | null;
  color?: string;
  thumbnail?: string;
  sku?: string;
  /** The number a formula step with `option` reads. */
  value?: number;
  effects: Effect[];
}

/** Every named block's selection is one of the listed choices (docs/scene-format.md, Option rules). */
export type When = Record<string, string[]>;

export interface OptionRule {
  when: When;
  hide: string[];
  disable: string[];
  hideBlock: boolean;
}

export interface OptionBlock {
  id: string;
  name: string;
  /** `toggle`: exactly two choices, off then on. */
  type: 'choice' | 'swatch' | 'toggle';
  targetObjectId: string | null;
  choices: Choice[];
  /** The choice marked `default: true` (the first so marked), else null. */
  defaultChoiceId: string | null;
  rules: OptionRule[];
}

export interface PricingBlock {
  /** `id`, else `pricingBlocks.<index>`. */
  id: string;
  label: string;
  price: number;
  when: When | null;
  sku?: string;
}

export type FormulaOperand =
  { kind: 'value'; value: number } | { kind: 'field'; field: string } | { kind: 'option'; blockId: string };

export interface FormulaStep {
  op: 'add' | 'multiply' | 'min' | 'max' | 'round';
  operand: FormulaOperand;
  /** Only for `round`. */
  mode?: 'half-up' | 'half-even' | 'up' | 'down';
  when: When | null;
  label: string | null;
  /** The step's position in the owner's `pricingFormula` (its line id is `formula.<index>`). */
  index?: number;
}

/** A `number` form field as pricing reads it (bounds default 0 and 1,000,000). */
export interface NumberField {
  id: string;
  label: string;
  min: number;
  max: number;
  step?: number;
  default: number | null;
}

export interface AnimationBlock {
  id: string;
  name: string;
  clip: string;
  trigger: 'button' | 'load' | 'choice';
  on: { blockId: string; choiceId: string } | null;
  model: string | null;
  loop: 'once' | 'repeat' | 'pingpong';
  speed: number;
  reverse: boolean;
}

export interface PricingSettings {
  /** ISO 4217, upper case; null: plain numbers with 2 decimals. */
  currency: string | null;
  decimals: 0 | 2 | 3;
  locale: string | null;
  showPrices: boolean;
  showDeltas: boolean;
  tax: { rate: number; included: boolean; label: string } | null;
  rounding: 'half-up' | 'half-even';
}

/** projectSettings keys the element honours (docs/scene-format.md, Project settings), defaults filled in. */
export interface SceneSettings {
  pricing: PricingSettings;
  /** `companyName`: the merchant the PDF names; null: the project's name. */
  branding: { primaryColor: string; logoUrl: string | null; companyName: string | null };
  lighting: {
    environment: 'room' | 'none';
    environmentIntensity: number;
    exposure: number;
    keyLight: number;
    shadows: 'auto' | boolean;
    shadowOpacity: number;
  };
  display: { background: string; autoRotate: boolean; showOptions: boolean; showForm: boolean };
  camera: {
    /** Degrees. */
    fov: number;
    minDistance: number | null;
    maxDistance: number | null;
    /** Degrees. */
    minPolarAngle: number;
    maxPolarAngle: number;
    enablePan: boolean;
    enableZoom: boolean;
    /** The view is fitted to the visible models (docs/scene-format.md); false: `data.camera` as given. */
    fit: boolean;
  };
  ar: { enabled: boolean; placement: 'floor' | 'wall'; scale: 'auto' | 'fixed' };
  /** The add-to-cart button (docs/cart.md). */
  cart: CartSettings;
  /** `customerCopy`: the visitor gets a copy of the request at the form's first e-mail field. */
  notifications: { customerCopy: boolean };
}

export interface CartSettings {
  enabled: boolean;
  label: string;
  skuBase: string | null;
  skuSeparator: string;
  /** Shows a quantity stepper (1 to 99). */
  quantity: boolean;
  /** Where the element posts the token: an https: URL or a path on the page's own origin; null: the page handles it. */
  action: string | null;
}

export interface Scene {
  models: SceneModel[];
  optionBlocks: OptionBlock[];
  pricingBlocks: PricingBlock[];
  formula: FormulaStep[];
  numberFields: NumberField[];
  animations: AnimationBlock[];
  settings: SceneSettings;
  saveConfigEnabled: boolean;
  /** A valid pricing block, a choice with a price or a formula step: otherwise every price is null. */
  hasPricing: boolean;
}

/** Block id → choice id. */
export type Options = Record<string, string>;

export interface BlockState {
  /** False when a rule's `hideBlock` holds or no choice is available. */
  active: boolean;
  hidden: string[];
  disabled: string[];
}

export interface ResolvedOptions {
  /** The active blocks' selections, in block order. */
  options: Options;
  /** Requested block ids that did not count: unknown block, unknown or unavailable choice, inactive block. */
  ignored: string[];
  blocks: Record<string, BlockState>;
}

export interface PriceLine {
  id: string;
  kind: 'pricing' | 'option' | 'formula' | 'tax';
  label: string;
  /** Minor units. */
  amount: number;
  blockId?: string;
  choiceId?: string;
  sku?: string;
}

/** Every amount an integer in minor units; `total` equals the sum of `lines` (docs/scene-format.md, Pricing blocks). */
export interface Price {
  currency: string | null;
  decimals: 0 | 2 | 3;
  subtotal: number;
  total: number;
  lines: PriceLine[];
  tax: { label: string; rate: number; included: boolean; amount: number } | null;
}
