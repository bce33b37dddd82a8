import type { PublicProject } from '#core/wire/public-project.js';

/**
 * The public routes the BFF proxies (the submit's call is `submit-request.ts`, a lazy chunk); the BFF adds the key.
 * Nothing here throws: every answer becomes a {@link Failure} or a value, which the element turns into a state.
 */

/** Where a share lives: the BFF origin and the share's two ids. */
export interface ShareTarget {
  apiBase: string;
  projectId: string;
  token: string;
}

/** An answer that is not a success, as the element's states see it. */
export type Failure =
  | { kind: 'password'; invalid: boolean }
  | { kind: 'unavailable' }
  /** `hostRefused`: the share exists but its allowed hosts leave out this page (403 `domain_not_allowed`). */
  | { kind: 'not-found'; hostRefused?: boolean }
  | { kind: 'rate-limited'; retryAfter: number }
  | { kind: 'invalid'; fields: Record<string, string> }
  | { kind: 'error'; message: string };

/** The public read: the project (after a 304, the very object this page already had). */
export type ReadResult = { kind: 'ok'; project: PublicProject } | Failure;

/** The model-urls route takes at most this many ids per call (docs/api.md, Public read). */
const MODEL_URLS_BATCH = 20;

/**
 * The last payload and its ETag per share, for the page session: several elements and reload()
 * revalidate with If-None-Match instead of downloading the scene again.
 */
const payloads = new Map<string, { etag: string; project: PublicProject }>();

const shareKey = ({ projectId, token }: ShareTarget) => `${projectId}/${token}`;
export const sharePath = ({ apiBase, projectId, token }: ShareTarget) =>
  `${apiBase.replace(/\/+$/, '')}/share/${encodeURIComponent(projectId)}/${encodeURIComponent(token)}`;

export async function request(url: string, init: RequestInit): Promise<Response | null> {
  try {
    return await fetch(url, init);
  } catch {
    // A TypeError: offline, DNS, or a CORS refusal. The status is unknowable, so it is retryable.
    return null;
  }
}

export async function jsonOf(res: Response): Promise<Record<string, unknown> | null> {
  const body: unknown = await res.json().catch(() => null);
  return body && typeof body === 'object' ? (body as Record<string, unknown>) : null;
}

/** Maps the share checks' answers (docs/api.md, Public read) to a failure. */
export async function failureOf(res: Response | null): Promise<Failure> {
  if (!res) return { kind: 'error', message: 'network' };
  const body = await jsonOf(res);
  switch (res.status) {
    case 400: {
      const fields: Record<string, string> = {};
      for (const detail of Array.isArray(body?.details) ? body.details : []) {
        const field = String(detail?.field ?? '').replace(/^body\.formData\./, '');
        if (field) fields[field] = String(detail?.message ?? '');
      }
      return { kind: 'invalid', fields };
    }
    case 401:
      if (body?.error === 'password_required' || body?.error === 'invalid_password')
        return { kind: 'password', invalid: body.error === 'invalid_password' };
      break;
    case 402:
      // The body names the reason (owner_billing); visitors are never told it.
      return { kind: 'unavailable' };
    case 403: // a refused host shows as not found (element/README.md, API); the code tells the page's developer why
      return { kind: 'not-found', hostRefused: body?.error === 'domain_not_allowed' };
    case 404:
      return { kind: 'not-found' };
    case 429:
      return {
        kind: 'rate-limited',
        retryAfter: Number(res.headers.get('retry-after')) || Number(body?.retryAfter) || 1,
      };
  }
  return { kind: 'error', message: `HTTP ${res.status}${body?.error ? ` ${body.error}` : ''}` };
}

/** Where the page's visitor events for this share go (docs/api.md, Visitor events). */
export const eventsUrl = (target: ShareTarget) => `${sharePath(target)}/events`;

export const passwordHeader = (password: string | undefined): Record<string, string> =>
  password ? { 'x-share-password': password } : {};

/**
 * `GET /share/:projectId/:token`, revalidated with the ETag of the page's last payload. A 304
 * answers that same project object, so callers can tell "unchanged" by identity.
 */
export async function readShare(target: ShareTarget, password?: string): Promise<ReadResult> {
  const cached = payloads.get(shareKey(target));
  // A hand-written If-None-Match makes the browser skip its own cache, so the 304 reaches us.
  const res = await request(sharePath(target), {
    cache: 'no-store',
    headers: { ...passwordHeader(password), ...(cached ? { 'if-none-match': cached.etag } : {}) },
  });
  if (res?.status === 304 && cached) return { kind: 'ok', project: cached.project };
  if (res?.status !== 200) return failureOf(res);
  const project = (await jsonOf(res))?.project as PublicProject | undefined;
  if (!project || !Array.isArray(project.data?.models)) return { kind: 'error', message: 'invalid payload' };
  const etag = res.headers.get('etag');
  if (etag) payloads.set(shareKey(target), { etag, project });
  return { kind: 'ok', project };
}

/**
 * URLs for models the read left without one (only the first 20 carry a url), in batches of {@link MODEL_URLS_BATCH};
 * ids the server does not answer, or whose batch failed, are absent.
 */
export async function fetchModelUrls(
  target: ShareTarget,
  modelIds: string[],
  password?: string,
): Promise<Record<string, string>> {
  const batches: string[][] = [];
  for (let i = 0; i < modelIds.length; i += MODEL_URLS_BATCH) batches.push(modelIds.slice(i, i + MODEL_URLS_BATCH));
  const answers = await Promise.all(
    batches.map(async (batch) => {
      const res = await request(`${sharePath(target)}/model-urls`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...passwordHeader(password) },
        body: JSON.stringify({ modelIds: batch }),
      });
      const urls = res?.ok ? (await jsonOf(res))?.urls : null;
      return urls && typeof urls === 'object' ? (urls as Record<string, string>) : {};
    }),
  );
  return Object.assign({}, ...answers);
}
