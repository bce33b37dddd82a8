import { Type } from 'typebox';
import { PriceSchema } from './request-price-schema.js';
import type { WarningCode } from './configurator/types.js';

/**
 * `GET /projects/:id/scene-report`'s answer (docs/api.md, Projects and assets), as a TypeBox schema the route
 * documents with and the owner console types itself with.
 */
const count = (what: string) => Type.Integer({ minimum: 0, description: what });

export const SceneWarningSchema = Type.Object({
  path: Type.String({ description: 'Dotted with indexes: sceneData.optionBlocks.2.choices.0.effects.1.color.' }),
  code: Type.Unsafe<WarningCode>(
    Type.String({
      description:
        'invalid_type, missing_field, invalid_value, duplicate_id, unknown_reference, unsupported, limit_exceeded, ' +
        'deleted_part, too_many_warnings (once, after 500), unknown_name (a name the model outline lacks) or ' +
        'not_checked (a model entry with no outline to check its names against).',
    }),
  ),
  message: Type.String(),
  suggestions: Type.Optional(
    Type.Array(Type.String(), { maxItems: 3, description: 'unknown_name: names of the same kind, closest first.' }),
  ),
});

export const SceneReportReply = Type.Object({
  success: Type.Boolean(),
  revision: Type.Integer({ description: 'The project revision the report describes (the current one).' }),
  counts: Type.Object(
    {
      models: count('Models kept.'),
      optionBlocks: count('Option blocks kept.'),
      choices: count('Choices of the kept blocks.'),
      effects: count('Effects of those choices.'),
      rules: count('Option rules of the kept blocks.'),
      animationBlocks: count('Animation blocks kept.'),
      pricingBlocks: count('Pricing blocks kept.'),
      formulaSteps: count('Pricing formula steps kept.'),
      formFields: count('Usable form fields.'),
    },
    { description: 'What the parser kept, after dropping unusable entries.' },
  ),
  warnings: Type.Array(SceneWarningSchema, {
    description: 'Each entry the parser dropped or corrected, in the order found.',
  }),
  defaultOptions: Type.Record(Type.String(), Type.String(), {
    description: 'Block id → choice id a visitor starts with: defaults with the option rules applied.',
  }),
  defaultPrice: Type.Union([PriceSchema, Type.Null()], {
    description: 'The price of defaultOptions with number fields at their defaults; null without pricing.',
  }),
});
