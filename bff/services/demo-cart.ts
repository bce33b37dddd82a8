import { encodeConfiguration } from '#core/wire/configurator/index.js';
import type { CartConfiguration } from '#core/wire/configurations.js';
import { createCartTokenCheck, type CartClaims, type CartTokenProblem } from './cart-token.js';
import { MAX_CART_LINES, isTokenShaped, type StoredCartLine } from './demo-cart-cookie.js';
import type { ShopLine } from './demo-shop-page.js';

/**
 * The demo shop's server side of the cart hand-off (docs/cart.md), written as a merchant's would be: the element's
 * form POST brings a token; the shop verifies it against the configurator server's JWKS and charges what it says.
 */

/** The stored configuration as `GET /configurations/:id` answers it (the fields the cart page shows). */
type ConfigurationRecord = Pick<
  CartConfiguration,
  'projectId' | 'options' | 'fields' | 'price' | 'summary' | 'imageUrl'
>;

/** The element's form fields (docs/cart.md). */
export interface CartForm {
  config_share_token?: unknown;
  config_share_id?: unknown;
  quantity?: unknown;
  edit_url?: unknown;
}

export interface DemoCartOptions {
  /** The configurator's server (the BFF's upstream): its JWKS and stored configurations. */
  upstream: string;
  /** The public key its public routes take. */
  publicKey: string;
}

const PROBLEMS: Record<CartTokenProblem, string> = {
  expired: 'This cart line has expired: configure the product again to add it.',
  invalid: "This cart line's signature does not check out, so it was not added.",
  'keys-unavailable': "The configurator's keys could not be read just now, so nothing was added. Please try again.",
};

/** The product page's path and query when `editUrl` is on the shop's own origin; other places are not linked. */
function ownPath(editUrl: unknown, origin: string): string | null {
  if (typeof editUrl !== 'string' || editUrl.length > 4096) return null;
  try {
    const url = new URL(editUrl);
    return url.origin === origin ? `${url.pathname}${url.search}` : null;
  } catch {
    return null;
  }
}

export function createDemoCart({ upstream, publicKey }: DemoCartOptions) {
  const base = upstream.replace(/\/+$/, '');
  const check = createCartTokenCheck(new URL(`${base}/.well-known/jwks.json`));

  /** The stored configuration for the picture and summary; null when it cannot be read (the price stays signed). */
  async function record(id: string): Promise<ConfigurationRecord | null> {
    try {
      const res = await fetch(`${base}/configurations/${encodeURIComponent(id)}`, {
        headers: { apikey: publicKey, authorization: `Bearer ${publicKey}` },
        signal: AbortSignal.timeout(5000),
      });
      if (!res.ok) return null;
      const body = (await res.json()) as { configuration?: ConfigurationRecord };
      return body.configuration ?? null;
    } catch {
      return null;
    }
  }

  function shopLine(claims: CartClaims, found: ConfigurationRecord | null, editPath: string | null): ShopLine {
    const saved =
      found && encodeConfiguration({ projectId: found.projectId, options: found.options, fields: found.fields });
    const edit = editPath && saved ? `${editPath}#cs=${saved}` : editPath;
    const decimals = found?.price?.decimals;
    return {
      id: claims.sub,
      sku: claims.sku,
      quantity: claims.qty,
      unit: claims.unit,
      total: claims.total,
      currency: claims.cur,
      decimals: decimals === 0 || decimals === 2 || decimals === 3 ? decimals : null,
      summary: found?.summary ?? null,
      imageUrl: found?.imageUrl ?? null,
      editUrl: edit,
    };
  }

  /** The cart without the line of this configuration id. */
  async function remove(stored: StoredCartLine[], id: unknown): Promise<StoredCartLine[]> {
    const checked = await Promise.all(stored.map(async (line) => ({ line, result: await check(line.token) })));
    return checked.filter(({ result }) => !('claims' in result) || result.claims.sub !== id).map(({ line }) => line);
  }

  return {
    /**
     * The element's form POST: verifies the token and that the form's id and quantity are the signed ones, then puts
     * the line in the cart (replacing the same configuration; the oldest line goes when the cart is full).
     */
    async add(
      stored: StoredCartLine[],
      form: CartForm,
      origin: string,
    ): Promise<{ lines: StoredCartLine[]; added: string } | { error: string; status: number }> {
      const token = form.config_share_token;
      if (typeof token !== 'string' || !isTokenShaped(token))
        return { error: 'The cart line came without its signed token, so nothing was added.', status: 400 };
      const checked = await check(token);
      if ('problem' in checked)
        return { error: PROBLEMS[checked.problem], status: checked.problem === 'keys-unavailable' ? 503 : 400 };
      const { claims } = checked;
      if (form.config_share_id !== claims.sub || Number(form.quantity) !== claims.qty)
        return { error: 'The cart line does not match its signature, so it was not added.', status: 400 };
      const line = { token, editPath: ownPath(form.edit_url, origin) };
      const rest = await remove(stored, claims.sub);
      return { lines: [...rest, line].slice(-MAX_CART_LINES), added: claims.sub };
    },

    /** The cart's lines, each token verified again: expired or foreign ones are dropped and said so. */
    async show(stored: StoredCartLine[]): Promise<{ lines: ShopLine[]; kept: StoredCartLine[]; notices: string[] }> {
      const checked = await Promise.all(stored.map(async (line) => ({ line, result: await check(line.token) })));
      const notices: string[] = [];
      const verified = checked.flatMap(({ line, result }) =>
        'claims' in result ? [{ line, claims: result.claims }] : [],
      );
      const dropped = checked.filter(({ result }) => 'problem' in result && result.problem !== 'keys-unavailable');
      if (dropped.length > 0)
        notices.push(`${dropped.length} line${dropped.length === 1 ? '' : 's'} expired and left your cart.`);
      if (checked.some(({ result }) => 'problem' in result && result.problem === 'keys-unavailable'))
        notices.push("Some lines cannot be shown just now: the configurator's keys could not be read.");
      const records = await Promise.all(verified.map(({ claims }) => record(claims.sub)));
      return {
        lines: verified.map(({ line, claims }, i) => shopLine(claims, records[i], line.editPath)),
        // Lines whose keys could not be read stay for next time; expired and forged ones go.
        kept: checked.filter(({ result }) => !dropped.some((d) => d.result === result)).map(({ line }) => line),
        notices,
      };
    },

    remove,
  };
}
