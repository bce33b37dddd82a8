import { failureOf, jsonOf, passwordHeader, request, sharePath, type ShareTarget, type Failure } from './api.js';

/** The submit body (docs/api.md, Submit). */
export interface SubmitBody {
  formData: Record<string, unknown>;
  selectedOptions: Record<string, unknown>;
  configurationSummary: string;
  screenshots: string[];
  /** The total the visitor saw; absent without pricing. */
  price?: { total: number; currency: string | null };
}

/** The submit: the request id the server committed. */
export type SubmitResult = { kind: 'ok'; requestId: string } | Failure;

/** `POST .../submit` with an Idempotency-Key, so a retried request is stored once. */
export async function postSubmit(
  target: ShareTarget,
  body: SubmitBody,
  idempotencyKey: string,
  password?: string,
): Promise<SubmitResult> {
  const res = await request(`${sharePath(target)}/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey, ...passwordHeader(password) },
    body: JSON.stringify(body),
  });
  if (!res?.ok) return failureOf(res);
  const requestId = (await jsonOf(res))?.requestId;
  return typeof requestId === 'string' ? { kind: 'ok', requestId } : { kind: 'error', message: 'invalid answer' };
}
