import { createHash } from 'node:crypto';
import {
  computePrice,
  configurationFieldsFor,
  resolveOptions,
  type Price,
  type Scene,
} from '../wire/configurator/index.js';

/** What a shopper asks to put in the cart (docs/cart.md): selections and number fields as a saved configuration. */
export interface CartRequest {
  options: Record<string, unknown>;
  fields: Record<string, unknown>;
  quantity: number;
}

/** The configuration as the server resolves and prices it against one revision of the project. */
export interface ResolvedConfiguration {
  /** A hash of project, revision, options, fields and quantity: the same configuration always has this id. */
  id: string;
  options: Record<string, string>;
  fields: Record<string, number>;
  /** Requested blocks and fields that did not count (unknown, unavailable, or no field the price reads). */
  ignored: string[];
  /** One unit's price, or null without pricing. */
  price: Price | null;
  sku: string | null;
  summary: string;
}

const sorted = <T>(record: Record<string, T>) =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * Resolves options through the rules, keeps the number fields the price reads as a saved configuration keeps them
 * (defaults filled in, values held to the field's bounds), and prices one unit (the browser's price never).
 */
export function resolveConfiguration(
  scene: Scene,
  project: { id: string; revision: number },
  request: CartRequest,
): ResolvedConfiguration {
  const { options, ignored } = resolveOptions(scene, request.options);
  const fields = configurationFieldsFor(scene, request.fields);
  for (const id of Object.keys(request.fields)) if (!Object.hasOwn(fields, id)) ignored.push(id);
  const { skuBase, skuSeparator } = scene.settings.cart;
  const parts = skuBase === null ? [] : [skuBase];
  const summary: string[] = [];
  for (const block of scene.optionBlocks) {
    const choice = block.choices.find((candidate) => candidate.id === options[block.id]);
    if (!choice) continue;
    if (choice.sku) parts.push(choice.sku);
    summary.push(`${block.name}: ${choice.label}`);
  }
  const identity = JSON.stringify([project.id, project.revision, sorted(options), sorted(fields), request.quantity]);
  return {
    id: createHash('sha256').update(identity).digest('base64url'),
    options,
    fields,
    ignored,
    price: computePrice(scene, options, fields),
    sku: parts.length > 0 ? parts.join(skuSeparator) : null,
    summary: summary.join('; '),
  };
}
