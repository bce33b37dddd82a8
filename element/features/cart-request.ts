import type { CartConfiguration } from '#core/wire/configurations.js';
import { jsonOf, passwordHeader, request, sharePath, type ShareTarget } from './api.js';

/** The `config-share-add-to-cart` event's detail. */
export interface CartAdded {
  configuration: CartConfiguration;
  /** The signed proof of price a shop's server verifies (ES256 JWS). */
  token: string;
  quantity: number;
  /** The page URL without its fragment plus `#cs=<saved configuration>`: opens this configuration again. */
  editUrl: string;
}

/** The body of `POST /share/:projectId/:token/configurations`. */
export interface CartBody {
  options: Record<string, string>;
  fields?: Record<string, number>;
  quantity: number;
  screenshot?: string;
}

/** Why the server did not create the configuration, in the shopper's terms. */
export type CartRefusal = 'offline' | 'failed' | 'invalid' | 'disabled' | 'not-configured' | 'unavailable';

export type CartResult =
  | { kind: 'ok'; configuration: CartConfiguration; token: string }
  | { kind: 'wait'; seconds: number }
  /** `reason`: the server's own words for a refused body (400), naming the field. */
  | { kind: 'refused'; refusal: CartRefusal; reason?: string };

const isConfiguration = (value: unknown): value is CartConfiguration =>
  !!value && typeof value === 'object' && typeof (value as CartConfiguration).id === 'string';

/** The 400's message, or its first detail as "field: message". */
function reasonOf(body: Record<string, unknown> | null): string | undefined {
  const [detail] = Array.isArray(body?.details) ? (body.details as Array<Record<string, unknown>>) : [];
  if (detail?.message) return `${String(detail.field ?? '').replace(/^body\./, '')}: ${String(detail.message)}`;
  return typeof body?.message === 'string' && body.message !== 'invalid_request' ? body.message : undefined;
}

/** Creates (or finds again) the configuration; every answer becomes a result, never a throw. */
export async function postConfiguration(target: ShareTarget, body: CartBody, password?: string): Promise<CartResult> {
  const res = await request(`${sharePath(target)}/configurations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...passwordHeader(password) },
    body: JSON.stringify(body),
  });
  if (!res) return { kind: 'refused', refusal: 'offline' };
  const answer = await jsonOf(res);
  if (res.ok)
    return isConfiguration(answer?.configuration) && typeof answer.token === 'string'
      ? { kind: 'ok', configuration: answer.configuration, token: answer.token }
      : { kind: 'refused', refusal: 'failed' };
  switch (res.status) {
    case 400:
      return { kind: 'refused', refusal: 'invalid', reason: reasonOf(answer) };
    case 429:
      return { kind: 'wait', seconds: Number(res.headers.get('retry-after')) || Number(answer?.retryAfter) || 1 };
    case 403:
      if (answer?.error === 'cart_disabled') return { kind: 'refused', refusal: 'disabled' };
      return { kind: 'refused', refusal: 'unavailable' };
    case 503:
      if (answer?.error === 'cart_not_configured') return { kind: 'refused', refusal: 'not-configured' };
      return { kind: 'refused', refusal: 'failed' };
    case 401:
    case 402:
    case 404:
      return { kind: 'refused', refusal: 'unavailable' };
  }
  return { kind: 'refused', refusal: 'failed' };
}
