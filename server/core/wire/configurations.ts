import { Type, type Static } from 'typebox';
import { PriceSchema } from './request-price-schema.js';
import { MAX_ID_LENGTH } from './configurator/owner-values.js';
import { MAX_OPTION_BLOCKS } from './configurator/parse-option-blocks.js';

/** Cart configurations on the wire (docs/cart.md): the create body and every answer that carries one. */

/** The audience every cart token names; a shop checks it. */
export const CART_AUDIENCE = 'config-share:cart';
const MAX_CART_QUANTITY = 10_000;
/**
 * Room for a screenshot well over its 1 MB limit, so a too large one is a 400 that names it (the route checks its
 * size before decoding); beyond this, 413.
 */
export const CONFIGURATION_BODY_LIMIT = 8 * 1024 * 1024;

const Id = Type.String({ maxLength: MAX_ID_LENGTH });
/** Record keys are ids too: bounded, so nothing echoed in `ignored` is longer than an id. */
const idKeys = { propertyNames: { maxLength: MAX_ID_LENGTH } };

export const ConfigurationBody = Type.Object(
  {
    options: Type.Record(Id, Id, {
      ...idKeys,
      maxProperties: MAX_OPTION_BLOCKS,
      description: 'Block id → choice id, as a saved configuration holds them; unknown or unavailable ones are listed.',
    }),
    fields: Type.Optional(
      Type.Record(Id, Type.Number(), {
        ...idKeys,
        maxProperties: 100,
        description:
          "The form's number fields the price formula reads, by field id: a missing one takes its default, a value " +
          "outside the field's bounds is held to them; other ids are listed in `ignored`.",
      }),
    ),
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CART_QUANTITY, default: 1 })),
    screenshot: Type.Optional(
      Type.String({ description: 'A data URL of a PNG, JPEG or WebP picture, at most 1 MB decoded.' }),
    ),
  },
  // Other members (a price the page showed, say) are ignored: the server prices the configuration itself.
  { additionalProperties: true },
);

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** A configuration as the server stored and priced it: what the element's event, a shop and the console read. */
export type CartConfiguration = Static<typeof Configuration>;

const Configuration = Type.Object({
  id: Type.String({ description: 'A hash of project, revision, options, fields and quantity (base64url).' }),
  projectId: Type.String(),
  revision: Type.Integer({ description: 'The project revision it was priced against.' }),
  options: Type.Record(Type.String(), Type.String()),
  fields: Type.Record(Type.String(), Type.Number()),
  quantity: Type.Integer(),
  price: Nullable({ ...PriceSchema, description: "One unit's price." }),
  total: Nullable(Type.Integer({ description: 'price.total × quantity, in minor units.' })),
  currency: Nullable(Type.String()),
  sku: Nullable(Type.String()),
  summary: Type.String(),
  imageUrl: Nullable(Type.String({ description: 'A signed URL of the picture, valid a year.' })),
  createdAt: Type.String(),
  expiresAt: Type.String(),
});

export const ConfigurationCreated = Type.Object({
  success: Type.Boolean(),
  configuration: Configuration,
  token: Type.String({ description: 'A compact JWS (ES256) a shop verifies against /.well-known/jwks.json.' }),
  ignored: Type.Array(Type.String(), {
    description: 'Requested blocks and fields that did not count (unknown, unavailable, not a number): defaults apply.',
  }),
});

export const ConfigurationReply = Type.Object({ success: Type.Boolean(), configuration: Configuration });

export const ConfigurationListReply = Type.Object({
  success: Type.Boolean(),
  configurations: Type.Array(Configuration),
  nextCursor: Nullable(Type.String()),
});
