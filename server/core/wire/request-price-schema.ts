import { Type } from 'typebox';

/**
 * The price shapes on the wire (docs/scene-format.md, Prices; docs/api.md, Submit), as TypeBox schemas: submit
 * validates the page's price with them, the request read and the scene report document the server's.
 */

/** The price function clamps a running total to ±10^15 minor units (docs/scene-format.md, Limits). */
const MAX_MINOR_UNITS = 1e15;

const MinorUnits = (description: string) =>
  Type.Integer({ minimum: -MAX_MINOR_UNITS, maximum: MAX_MINOR_UNITS, description });

const Currency = Type.Union([Type.String({ pattern: '^[A-Z]{3}$' }), Type.Null()], {
  description: 'ISO 4217 code, upper case; null: a project without a currency (plain numbers).',
});

export const ClientPriceSchema = Type.Object(
  {
    total: MinorUnits('The total the page showed, in minor units (cents).'),
    currency: Currency,
  },
  {
    description:
      "What the visitor's page showed. Stored as sent; the server prices the request itself and never refuses " +
      'it for a different figure (the request read shows priceMismatch).',
  },
);

const PriceLineSchema = Type.Object({
  id: Type.String({ description: 'The pricing block id, `<blockId>.<choiceId>`, `formula.<index>` or `tax`.' }),
  kind: Type.Union([Type.Literal('pricing'), Type.Literal('option'), Type.Literal('formula'), Type.Literal('tax')]),
  label: Type.String(),
  amount: Type.Integer({ description: 'Minor units.' }),
  blockId: Type.Optional(Type.String()),
  choiceId: Type.Optional(Type.String()),
  sku: Type.Optional(Type.String()),
});

const priceFields = {
  currency: Currency,
  decimals: Type.Union([Type.Literal(0), Type.Literal(2), Type.Literal(3)], {
    description: 'Minor unit digits of the currency (2 without one).',
  }),
  subtotal: Type.Integer({ description: 'The sum of the lines before the formula, minor units.' }),
  total: Type.Integer({ description: 'The sum of all lines, minor units.' }),
  lines: Type.Array(PriceLineSchema),
  tax: Type.Union(
    [
      Type.Object({
        label: Type.String(),
        rate: Type.Number(),
        included: Type.Boolean(),
        amount: Type.Integer({ description: 'Minor units: the share of the total (included) or the tax line.' }),
      }),
      Type.Null(),
    ],
    { description: 'Included tax is reported here only; tax not included is also a `tax` line.' },
  ),
};

export const PriceSchema = Type.Object(priceFields, {
  description: 'A price as the server computes it: every amount an integer in minor units.',
});

export const StoredPriceSchema = Type.Object(
  {
    ...priceFields,
    ignored: Type.Array(Type.String(), {
      description:
        'Block ids of selectedOptions that did not count (no such block, an unknown or unavailable choice, an ' +
        'inactive block): those blocks were priced at their default.',
    }),
  },
  { description: "The server's price of the request, from the revision the visitor submitted to." },
);
