import { Type, type TSchema } from 'typebox';
import { DEFAULT_SETTINGS } from './configurator/default-settings.js';
import { MAX_ID_LENGTH, MAX_LABEL_LENGTH, MAX_OWNER_NUMBER } from './configurator/owner-values.js';
import { MAX_NODE_NAME, MAX_PART_ENTRIES } from './configurator/parse-models.js';
import {
  BLOCK_TYPES,
  MAX_CHOICES_PER_BLOCK,
  MAX_OPTION_BLOCKS,
  MAX_RULES_PER_BLOCK,
} from './configurator/parse-option-blocks.js';
import { EFFECT_TYPES, MAX_EFFECTS_PER_CHOICE, MAX_NODES_PER_EFFECT } from './configurator/parse-effects.js';
import { FORMULA_OPS, MAX_FORMULA_STEPS, MAX_PRICING_BLOCKS, ROUND_MODES } from './configurator/parse-pricing.js';
import { LOOPS, MAX_ANIMATION_BLOCKS, TRIGGERS } from './configurator/parse-animations.js';
import { MAX_WHEN_BLOCKS } from './configurator/when.js';
import { MAX_SKU_SEPARATOR_LENGTH } from './configurator/parse-settings.js';

/**
 * A project's `data` as the configurator reads it (docs/scene-format.md), as a JSON Schema (draft 2020-12) for
 * editors, IDEs and scripts. Advisory: saving never enforces it, the parser's warnings stay the rule. Its limits
 * are the parser's own constants; objects stay open where editors keep fields of their own.
 */

const open = { additionalProperties: true } as const;
const oneOf = <T extends string>(values: readonly T[], description: string, fallback?: T) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description, ...(fallback ? { default: fallback } : {}) });

const Id = (description = 'An id.') =>
  Type.Union([Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH }), Type.Number()], {
    description: `${description} 1 to ${MAX_ID_LENGTH} characters; a number counts as its decimal string.`,
  });
const Label = (description: string) =>
  Type.Union([Type.String({ maxLength: MAX_LABEL_LENGTH }), Type.Number()], { description });
const GltfName = (description: string) => Type.String({ minLength: 1, maxLength: MAX_NODE_NAME, description });
const Color = (description: string) =>
  Type.String({ pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$', description: `${description} #rgb or #rrggbb, sRGB.` });
const HttpsUrl = (description: string) =>
  Type.String({ pattern: '^https://', maxLength: 2048, description: `${description} An absolute https: URL.` });
const Amount = (description: string, extra: Record<string, unknown> = {}) =>
  Type.Number({ minimum: -MAX_OWNER_NUMBER, maximum: MAX_OWNER_NUMBER, description, ...extra });
const Fraction = (description: string, fallback?: number) =>
  Type.Number({ minimum: 0, maximum: 1, description, ...(fallback === undefined ? {} : { default: fallback }) });
const Flag = (description: string, fallback?: boolean) =>
  Type.Boolean({ description, ...(fallback === undefined ? {} : { default: fallback }) });

const Vector = (description: string) =>
  Type.Union(
    [
      Type.Array(Type.Number(), { minItems: 3, maxItems: 3 }),
      Type.Object({
        x: Type.Optional(Type.Number()),
        y: Type.Optional(Type.Number()),
        z: Type.Optional(Type.Number()),
      }),
    ],
    { description: `${description} {x,y,z} or [x,y,z]; an omitted component keeps the node's own value.` },
  );
const NodeNames = (description: string) =>
  Type.Array(GltfName('A glTF node name as the file writes it.'), {
    minItems: 1,
    maxItems: MAX_NODES_PER_EFFECT,
    description,
  });
const When = Type.Record(
  Type.String(),
  Type.Union([Id('A choice id.'), Type.Array(Id('A choice id.'), { minItems: 1 })]),
  {
    maxProperties: MAX_WHEN_BLOCKS,
    description:
      'Holds when every named block\'s selection is one of the listed choices: { "<blockId>": "<choiceId>" or [...] }.',
  },
);

// Model entries: placement and part fields (docs/scene-format.md, Model entries).
const PartTransform = Type.Object(
  {
    position: Type.Optional(Vector("Replaces the node's local translation.")),
    rotation: Type.Optional(Vector("Replaces the node's local rotation: radians, Euler XYZ.")),
    scale: Type.Optional(Vector("Replaces the node's local scale.")),
  },
  { ...open, description: "Replaces the node's local translation, rotation and scale from the file." },
);
const PivotData = Type.Object(
  {
    x: Type.Optional(Type.Number({ default: 0 })),
    y: Type.Optional(Type.Number({ default: 0 })),
    z: Type.Optional(Type.Number({ default: 0 })),
    parts: Type.Optional(
      Type.Record(Type.String(), Vector("A part's pivot in its local space."), {
        maxProperties: MAX_PART_ENTRIES,
        description: 'Node name → pivot for partTransforms and transform effects.',
      }),
    ),
  },
  { ...open, description: 'Rotation and scale turn about this point; ignored when transform is a 16-number matrix.' },
);
const ModelEntry = Type.Object(
  {
    id: Id('The model id blocks, effects and animations name.'),
    fileName: Type.String({
      minLength: 1,
      maxLength: 500,
      description: "The stored GLB's name (the asset's fileName).",
    }),
    assetId: Type.Optional(Type.String({ format: 'uuid', description: 'The workspace asset this model shows.' })),
    uploadedModelPath: Type.Optional(
      Type.String({ maxLength: 500, description: 'Editor bookkeeping, served as given.' }),
    ),
    transform: Type.Optional(
      Type.Union([Type.Array(Type.Number(), { minItems: 16, maxItems: 16 }), Type.Object({}, open)], {
        description: 'A 16-number column-major matrix (then position, rotation, scale and pivot are ignored).',
      }),
    ),
    position: Type.Optional(Vector('Placement in the scene, metres.')),
    rotation: Type.Optional(Vector('Placement rotation: radians, Euler XYZ.')),
    scale: Type.Optional(Vector('Placement scale.')),
    partTransforms: Type.Optional(
      Type.Record(Type.String(), PartTransform, {
        maxProperties: MAX_PART_ENTRIES,
        description: "glTF node name → transform replacing that node's own.",
      }),
    ),
    deletedParts: Type.Optional(
      Type.Array(GltfName('A glTF node name.'), {
        maxItems: MAX_PART_ENTRIES,
        description: 'Nodes removed with their subtrees at load; no effect brings them back.',
      }),
    ),
    pivotData: Type.Optional(PivotData),
  },
  { ...open, description: 'One model of the scene.' },
);

// Effects (docs/scene-format.md, Effects): one object per type, told apart by `type`.
const effectModel = Type.Optional(
  Id("The model id it applies to; default: the block's targetObjectId, else every model."),
);
const MaterialEffect = Type.Object(
  {
    type: Type.Literal('material'),
    model: effectModel,
    material: Type.Optional(GltfName('Changes this material wherever it is used.')),
    nodes: Type.Optional(NodeNames('Changes the meshes under these nodes (their material cloned first).')),
    use: Type.Optional(GltfName('Another material of the same model, applied first.')),
    color: Type.Optional(Color('Base colour.')),
    roughness: Type.Optional(Fraction('Roughness, 0 to 1.')),
    metalness: Type.Optional(Fraction('Metalness, 0 to 1.')),
    opacity: Type.Optional(Fraction('Opacity, 0 to 1.')),
    map: Type.Optional(HttpsUrl("Base colour texture (sRGB, the model's UVs).")),
  },
  {
    ...open,
    oneOf: [{ required: ['material'] }, { required: ['nodes'] }],
    description: 'Exactly one of material or nodes; then use, then the properties.',
  },
);
const VisibilityEffect = Type.Object(
  {
    type: Type.Literal('visibility'),
    model: effectModel,
    nodes: Type.Optional(NodeNames('Nodes shown or hidden with their subtrees; none: the whole model.')),
    visible: Type.Boolean({ description: 'Shown (true) or hidden (false).' }),
  },
  { ...open, description: 'Shows or hides nodes.' },
);
const VariantEffect = Type.Object(
  {
    type: Type.Literal('variant'),
    model: effectModel,
    name: GltfName('A KHR_materials_variants variant name.'),
  },
  { ...open, description: 'Applies a material variant to the model.' },
);
const TransformEffect = Type.Object(
  {
    type: Type.Literal('transform'),
    model: effectModel,
    nodes: NodeNames('Nodes moved, on top of their partTransforms.'),
    position: Type.Optional(Vector('Local translation.')),
    rotation: Type.Optional(Vector('Local rotation: radians, Euler XYZ.')),
    scale: Type.Optional(Vector('Local scale.')),
  },
  { ...open, description: 'Moves, turns or scales nodes.' },
);
const Effect = Type.Union([MaterialEffect, VisibilityEffect, VariantEffect, TransformEffect], {
  description: `One of the types ${EFFECT_TYPES.join(', ')}; applied in order, a later write wins.`,
});

const Choice = Type.Object(
  {
    id: Id('Unique in its block.'),
    label: Type.Optional(Label('Shown to the visitor; default: the id.')),
    price: Type.Optional(Amount('Major units of the project currency, may be negative; absent: no price line.')),
    default: Type.Optional(Flag("The block's default (the first so marked).", false)),
    color: Type.Optional(Color("A swatch's colour.")),
    thumbnail: Type.Optional(HttpsUrl("A swatch's image.")),
    sku: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH, description: 'Goes into its price line.' }),
    ),
    value: Type.Optional(Amount('The number a formula step with `option` reads.')),
    effects: Type.Optional(
      Type.Array(Effect, { maxItems: MAX_EFFECTS_PER_CHOICE, description: 'What selecting it does to the scene.' }),
    ),
  },
  { ...open, description: 'One choice of an option block.' },
);
const ChoiceIds = (description: string) =>
  Type.Array(Id('A choice id of this block.'), { maxItems: MAX_CHOICES_PER_BLOCK, description });
const Rule = Type.Object(
  {
    when: When,
    hide: Type.Optional(ChoiceIds('Choices of this block not shown while `when` holds.')),
    disable: Type.Optional(ChoiceIds('Choices shown but not selectable while `when` holds.')),
    hideBlock: Type.Optional(Flag('The whole block inactive while `when` holds.', false)),
  },
  { ...open, description: 'A rule on the block whose choices it affects; `when` names only earlier blocks.' },
);
const OptionBlock = Type.Object(
  {
    id: Id('Unique among the blocks.'),
    name: Type.Optional(Label('Shown to the visitor; default: the id.')),
    type: Type.Optional(oneOf(BLOCK_TYPES, 'choice: radio group; swatch: swatches; toggle: a switch.', 'choice')),
    targetObjectId: Type.Optional(Id('The model its effects default to.')),
    choices: Type.Array(Choice, { minItems: 1, maxItems: MAX_CHOICES_PER_BLOCK, description: 'A toggle has two.' }),
    rules: Type.Optional(Type.Array(Rule, { maxItems: MAX_RULES_PER_BLOCK, description: 'Hide or disable rules.' })),
  },
  { ...open, description: 'An option the visitor chooses.' },
);

const FIELD_TYPES = ['text', 'email', 'tel', 'number', 'textarea', 'select', 'checkbox'] as const;
const FormField = Type.Object(
  {
    id: Id('Unique among the fields; formData key.'),
    label: Type.Optional(Type.String({ description: 'Shown beside the field; default: the id.' })),
    type: Type.Optional(oneOf(FIELD_TYPES, 'How the field is shown and checked on submit.', 'text')),
    required: Type.Optional(Flag('A submit without it is refused.', false)),
    options: Type.Optional(
      Type.Array(
        Type.Object({ value: Type.Union([Type.String(), Type.Number()]), label: Type.Optional(Type.String()) }, open),
        { description: 'select: the allowed answers.' },
      ),
    ),
    min: Type.Optional(Amount('number: the lowest value (default 0).')),
    max: Type.Optional(Amount('number: the highest value (default 1,000,000).')),
    step: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'number: values lie on this grid from min.' })),
    default: Type.Optional(Amount('number: the initial value, within min and max.')),
    minLength: Type.Optional(Type.Integer({ minimum: 1, description: 'Text types: the fewest characters.' })),
    maxLength: Type.Optional(Type.Integer({ minimum: 1, description: 'Text types: the most characters.' })),
  },
  { ...open, description: 'A field of the request form.' },
);

const AnimationBlock = Type.Object(
  {
    id: Id('Unique among the animations.'),
    name: Type.Optional(Label("The button's text; default: the id.")),
    clip: GltfName('A glTF animation name, in `model` or the first model that has it.'),
    trigger: oneOf(TRIGGERS, 'button: a button plays it; load: after the first frame; choice: selecting `on`.'),
    on: Type.Optional(
      Type.Object(
        { blockId: Id('A block id.'), choiceId: Id('A choice id of that block.') },
        { ...open, description: 'trigger choice: the choice that plays it.' },
      ),
    ),
    model: Type.Optional(Id('The model whose clip plays.')),
    loop: Type.Optional(oneOf(LOOPS, 'once holds its last frame; repeat; pingpong.', 'once')),
    speed: Type.Optional(Type.Number({ minimum: 0.1, maximum: 10, default: 1, description: 'Playback rate.' })),
    reverse: Type.Optional(
      Type.Boolean({ description: 'Plays backward when the choice is left; default true for choice with once.' }),
    ),
  },
  {
    ...open,
    if: { properties: { trigger: { const: 'choice' } }, required: ['trigger'] },
    then: { required: ['on'] },
    description: 'An animation clip and what plays it.',
  },
);

const PricingBlock = Type.Object(
  {
    id: Type.Optional(Id('The line id; default pricingBlocks.<index>.')),
    label: Type.Optional(Label("The line's label; default: the id.")),
    price: Type.Optional(Amount("The line's amount, major units.", { default: 0 })),
    when: Type.Optional(When),
    sku: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH, description: 'Goes into the line.' })),
  },
  { ...open, description: 'A price line while its `when` holds (base price, surcharges).' },
);
const FormulaStep = Type.Object(
  {
    op: oneOf(FORMULA_OPS, 'add, multiply, min (a cap), max (a floor) or round (to a multiple).'),
    value: Type.Optional(Amount('The operand: a number.')),
    field: Type.Optional(Id("The operand: a number form field's id.")),
    option: Type.Optional(Id("The operand: a block id; its selected choice's value.")),
    mode: Type.Optional(oneOf(ROUND_MODES, 'round only: how a half is rounded.', 'half-up')),
    when: Type.Optional(When),
    label: Type.Optional(Label("The formula line's label; default a fixed English text.")),
  },
  {
    ...open,
    oneOf: [{ required: ['value'] }, { required: ['field'] }, { required: ['option'] }],
    description: 'A step on the running total, with exactly one of value, field or option.',
  },
);

// projectSettings (docs/scene-format.md, Project settings and Prices): a bad value falls back to its default.
const { pricing, branding, lighting, display, camera, ar, cart, notifications } = DEFAULT_SETTINGS;
const Range = (min: number, max: number, fallback: number, description: string) =>
  Type.Number({ minimum: min, maximum: max, default: fallback, description });
const Tax = Type.Object(
  {
    rate: Type.Number({ minimum: 0, maximum: 1, description: 'The tax rate, 0.19 for 19 %.' }),
    included: Type.Optional(Flag('Included in the prices (true) or added as a line (false).', true)),
    label: Type.Optional(Type.String({ maxLength: MAX_LABEL_LENGTH, default: 'Tax', description: 'Its name.' })),
  },
  { ...open, description: 'A tax on the total.' },
);
const PricingSettings = Type.Object(
  {
    currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217; none: plain numbers.' })),
    locale: Type.Optional(Type.String({ maxLength: 64, description: 'A BCP 47 tag for formatting, as de-DE.' })),
    showPrices: Type.Optional(Flag('false: no price shown; still computed.', pricing.showPrices)),
    showDeltas: Type.Optional(Flag('Deltas (+€40.00) beside choices.', pricing.showDeltas)),
    tax: Type.Optional(Tax),
    rounding: Type.Optional(
      oneOf(['half-up', 'half-even'] as const, 'How every rounding breaks a half.', pricing.rounding),
    ),
  },
  { ...open, description: 'Currency, display and tax of prices.' },
);
const ProjectSettings = Type.Object(
  {
    pricing: Type.Optional(PricingSettings),
    branding: Type.Optional(
      Type.Object(
        {
          primaryColor: Type.Optional({ ...Color('The accent colour.'), default: branding.primaryColor }),
          logoUrl: Type.Optional(HttpsUrl('A logo shown in the element and the request PDF.')),
          companyName: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: MAX_LABEL_LENGTH,
              description: "The merchant the request PDF names; default the project's name.",
            }),
          ),
        },
        { ...open, description: 'Colour, logo and company name.' },
      ),
    ),
    lighting: Type.Optional(
      Type.Object(
        {
          environment: Type.Optional(oneOf(['room', 'none'] as const, 'Image-based light.', lighting.environment)),
          environmentIntensity: Type.Optional(Range(0, 5, lighting.environmentIntensity, 'Environment strength.')),
          exposure: Type.Optional(Range(0.1, 4, lighting.exposure, 'Tone-mapping exposure.')),
          keyLight: Type.Optional(Range(0, 10, lighting.keyLight, 'Key light intensity.')),
          shadows: Type.Optional(
            Type.Union([Type.Literal('auto'), Type.Boolean()], {
              default: lighting.shadows,
              description: 'auto: on at renderQuality high.',
            }),
          ),
          shadowOpacity: Type.Optional(Range(0, 1, lighting.shadowOpacity, 'Ground shadow opacity.')),
        },
        { ...open, description: 'Light and shadows.' },
      ),
    ),
    display: Type.Optional(
      Type.Object(
        {
          background: Type.Optional(
            Type.Union([Color('A colour.'), Type.Literal('transparent')], {
              default: display.background,
              description: 'The canvas background: #rrggbb or transparent.',
            }),
          ),
          autoRotate: Type.Optional(Flag('Turns at 30°/s until the first interaction.', display.autoRotate)),
          showOptions: Type.Optional(Flag('Shows the options panel.', display.showOptions)),
          showForm: Type.Optional(Flag('Shows the request form.', display.showForm)),
        },
        { ...open, description: 'What the element shows.' },
      ),
    ),
    camera: Type.Optional(
      Type.Object(
        {
          fov: Type.Optional(Range(10, 100, camera.fov, 'Vertical field of view, degrees.')),
          minDistance: Type.Optional(Type.Number({ minimum: 0, description: 'Closest zoom; none by default.' })),
          maxDistance: Type.Optional(Type.Number({ minimum: 0, description: 'Farthest zoom; none by default.' })),
          minPolarAngle: Type.Optional(Range(0, 180, camera.minPolarAngle, 'Highest view, degrees from above.')),
          maxPolarAngle: Type.Optional(Range(0, 180, camera.maxPolarAngle, 'Lowest view, degrees from above.')),
          enablePan: Type.Optional(Flag('The visitor may pan.', camera.enablePan)),
          enableZoom: Type.Optional(Flag('The visitor may zoom.', camera.enableZoom)),
          fit: Type.Optional(
            Flag('Fits the view to the visible models; false: data.camera exactly as given.', camera.fit),
          ),
        },
        { ...open, description: 'Camera limits; position and target stay in data.camera.' },
      ),
    ),
    ar: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Flag('Shows the AR button where AR can start.', ar.enabled)),
          placement: Type.Optional(oneOf(['floor', 'wall'] as const, 'Where AR places the model.', ar.placement)),
          scale: Type.Optional(oneOf(['auto', 'fixed'] as const, 'Whether AR lets the visitor scale.', ar.scale)),
        },
        { ...open, description: 'Augmented reality.' },
      ),
    ),
    cart: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Flag('Shows the add-to-cart button (with a cart signing key).', cart.enabled)),
          label: Type.Optional(
            Type.String({ maxLength: MAX_LABEL_LENGTH, default: cart.label, description: "The button's text." }),
          ),
          skuBase: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: MAX_ID_LENGTH,
              description: "The SKU's first part; none by default.",
            }),
          ),
          skuSeparator: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: MAX_SKU_SEPARATOR_LENGTH,
              default: cart.skuSeparator,
              description: 'Joins the SKU parts.',
            }),
          ),
          quantity: Type.Optional(Flag('Shows a quantity stepper, 1 to 99.', cart.quantity)),
          action: Type.Optional(
            Type.String({
              maxLength: 2048,
              pattern: '^(https://|/(?![/\\\\]))',
              description: "Where the line is posted: an https: URL or a path on the page's origin; none by default.",
            }),
          ),
        },
        { ...open, description: 'The add-to-cart button (docs/cart.md).' },
      ),
    ),
    notifications: Type.Optional(
      Type.Object(
        {
          customerCopy: Type.Optional(
            Flag(
              "Sends the visitor a copy of the request at the form's first email field.",
              notifications.customerCopy,
            ),
          ),
        },
        { ...open, description: 'Who hears about a request besides the owner.' },
      ),
    ),
    currency: Type.Optional(
      Type.String({ pattern: '^[A-Za-z]{3}$', description: 'Older key: pricing.currency wins.' }),
    ),
    showPrices: Type.Optional(Type.Boolean({ description: 'Older key: pricing.showPrices wins.' })),
    brandColor: Type.Optional(Color('Older key; wins over branding.primaryColor.')),
  },
  { ...open, description: "Settings the element honours; other keys are the owner's (credentials are redacted)." },
);

const SceneData = Type.Object(
  {
    optionBlocks: Type.Optional(Type.Array(OptionBlock, { maxItems: MAX_OPTION_BLOCKS, description: 'In order.' })),
    formFields: Type.Optional(Type.Array(FormField, { description: 'The request form, in order.' })),
    animationBlocks: Type.Optional(Type.Array(AnimationBlock, { maxItems: MAX_ANIMATION_BLOCKS })),
    pricingBlocks: Type.Optional(Type.Array(PricingBlock, { maxItems: MAX_PRICING_BLOCKS })),
    pricingFormula: Type.Optional(
      Type.Array(FormulaStep, { maxItems: MAX_FORMULA_STEPS, description: 'Steps on the total, in order.' }),
    ),
    projectSettings: Type.Optional(ProjectSettings),
  },
  { ...open, description: 'The configurator: options, form, animations, pricing and settings.' },
);

const Point = (description: string) =>
  Type.Union(
    [
      Type.Array(Type.Number(), { minItems: 3, maxItems: 3 }),
      Type.Object({ x: Type.Number(), y: Type.Number(), z: Type.Number() }, open),
    ],
    { description: `${description} {x,y,z} or [x,y,z].` },
  );

/** The project data schema without `$schema` and `$id`, which the route adds for where it is served. */
export const ProjectDataSchema: TSchema = Type.Object(
  {
    models: Type.Optional(Type.Array(ModelEntry, { maxItems: 5000, description: "The scene's models." })),
    sceneData: Type.Optional(SceneData),
    camera: Type.Optional(
      Type.Object(
        { position: Point('Where the camera stands.'), target: Point('The point it looks at.') },
        { ...open, description: 'The starting view: camera position and the point it looks at.' },
      ),
    ),
    renderQuality: Type.Optional(
      oneOf(['optimised', 'low', 'high'] as const, 'Rendering cost against quality.', 'optimised'),
    ),
    saveConfigEnabled: Type.Optional(Flag('Shows the save button (saved configurations).', false)),
  },
  { ...open, description: "A project's data: its models and configurator." },
);
