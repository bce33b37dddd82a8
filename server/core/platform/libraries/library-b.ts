import type { LibraryHttp } from './library-http.js';
import { statusError } from './library-http.js';
import { LibraryError } from '../../domain/libraries/library-errors.js';
import { licenceFor, unknownLicence, type LicenceInfo } from '../../domain/libraries/licences.js';
import type { CategoryId } from '../../domain/libraries/categories.js';
import type { CallContext, DownloadPlan, LibraryAdapter, LibraryItem } from './types.js';

/**
 * library_b: Sketchfab Data API v3. Search and details need no account; downloads need the person's own OAuth token.
 * Upstream caps `count` at 24, so a larger page follows `cursors.next` over several calls.
 */
export interface LibraryBOptions {
  apiUrl: string;
  oauthUrl: string;
  clientId?: string;
  clientSecret?: string;
  http: LibraryHttp;
}

const PROVIDER = 'library_b';
const UPSTREAM_PAGE = 24;
const UID = /^[a-zA-Z0-9]{6,64}$/;

/** /v3/licenses: uid → our id (uids first, then labels, then slugs; docs/libraries.md, Licences). */
const LICENSE_UIDS: Record<string, string> = {
  '7c23a1ba438d4306920229c12afcb5f9': 'cc0',
  '322a749bcfa841b29dff1e8a1bb74b0b': 'by',
  b9ddc40b93e34cdca1fc152f39b9f375: 'by-sa',
  '72360ff1740d419791934298b8b6d270': 'by-nd',
  bbfe3f7dbcdd4122b966b85b9786a989: 'by-nc',
  '2628dbe5140a4e9592126c8df566c0b7': 'by-nc-sa',
  '34b725081a6a4184957efaec2cb84ed3': 'by-nc-nd',
  '783b685da9bf457d81e829fa283f3567': 'st',
  '72eb2b1960364637901eacce19283624': 'free-st',
  '5b54cf13b1a4422ca439696eb152070d': 'ed',
};
const LICENSE_LABELS: Record<string, string> = {
  'cc0 public domain': 'cc0',
  'cc attribution': 'by',
  'cc attribution-sharealike': 'by-sa',
  'cc attribution-noderivs': 'by-nd',
  'cc attribution-noncommercial': 'by-nc',
  'cc attribution-noncommercial-sharealike': 'by-nc-sa',
  'cc attribution-noncommercial-noderivs': 'by-nc-nd',
  standard: 'st',
  'free standard': 'free-st',
  editorial: 'ed',
};
const LICENSE_SLUGS = new Set(['cc0', 'by', 'by-sa', 'by-nd', 'by-nc', 'by-nc-sa', 'by-nc-nd', 'st', 'free-st', 'ed']);

/** Ours → Sketchfab category slugs; props has none (no filter is sent). */
const CATEGORY: Partial<Record<CategoryId, string>> = {
  furniture: 'furniture-home',
  architecture: 'architecture',
  vehicles: 'cars-vehicles',
  nature: 'nature-plants',
  animals: 'animals-pets',
  people: 'people',
  electronics: 'electronics-gadgets',
  food: 'food-drink',
  fashion: 'fashion-style',
  art: 'art-abstract',
  history: 'cultural-heritage-history',
};
const FROM_SLUG = new Map<string, CategoryId>([
  ...Object.entries(CATEGORY).map(([ours, theirs]) => [theirs, ours as CategoryId] as const),
  ['characters-creatures', 'people'],
]);

interface SkfbModel {
  uid?: string;
  name?: string;
  description?: string;
  viewerUrl?: string;
  isDownloadable?: boolean;
  faceCount?: number;
  publishedAt?: string;
  user?: { username?: string; displayName?: string; profileUrl?: string };
  tags?: Array<{ name?: string; slug?: string }>;
  categories?: Array<{ slug?: string; name?: string }>;
  thumbnails?: { images?: Array<{ url?: string; width?: number }> };
  license?: { uid?: string; label?: string; slug?: string; fullName?: string; url?: string } | string | null;
  archives?: Record<string, { size?: number; faceCount?: number } | null>;
}

function licenceOf(license: SkfbModel['license']): LicenceInfo {
  if (!license) return unknownLicence();
  if (typeof license === 'string') return LICENSE_SLUGS.has(license) ? licenceFor(license) : unknownLicence(license);
  const byUid = license.uid ? LICENSE_UIDS[license.uid] : undefined;
  const byLabel = license.label ? LICENSE_LABELS[license.label.trim().toLowerCase()] : undefined;
  const bySlug = license.slug && LICENSE_SLUGS.has(license.slug) ? license.slug : undefined;
  const id = byUid ?? byLabel ?? bySlug;
  return id ? licenceFor(id, license.fullName ?? license.label) : unknownLicence(license.label);
}

function thumbnail(model: SkfbModel): string {
  const images = (model.thumbnails?.images ?? []).filter((i) => i.url);
  // The smallest image at least 256 wide, else the largest.
  const fit =
    images.filter((i) => (i.width ?? 0) >= 256).sort((a, b) => (a.width ?? 0) - (b.width ?? 0))[0] ??
    images.sort((a, b) => (b.width ?? 0) - (a.width ?? 0))[0];
  return fit?.url ?? '';
}

function toItem(model: SkfbModel): LibraryItem {
  const uid = model.uid ?? '';
  const licence = licenceOf(model.license);
  const archives = model.archives ?? {};
  const formats = ['glb', 'gltf'].filter((f) => archives[f]);
  let reason: string | undefined;
  if (model.isDownloadable === false) reason = 'The author does not allow downloads of this model.';
  else if (!archives.gltf && !archives.glb && model.archives) reason = 'The model has no glTF or GLB download.';
  const categories = [
    ...new Set((model.categories ?? []).map((c) => FROM_SLUG.get(c.slug ?? '')).filter((c): c is CategoryId => !!c)),
  ];
  return {
    provider: PROVIDER,
    providerAssetId: uid,
    name: model.name ?? uid,
    author: model.user?.displayName || model.user?.username || 'Unknown author',
    sourceUrl: model.viewerUrl ?? `https://sketchfab.com/3d-models/${uid}`,
    thumbnailUrl: thumbnail(model),
    tags: (model.tags ?? []).map((t) => t.name ?? t.slug ?? '').filter(Boolean),
    categories,
    ...licence,
    availableFormats: formats.length ? formats : ['gltf'],
    ...(typeof model.faceCount === 'number' ? { polygonCount: model.faceCount } : {}),
    importable: !reason,
    ...(reason ? { notImportableReason: reason } : {}),
    ...(archives.gltf?.size || archives.glb?.size
      ? { downloadSize: (archives.gltf?.size ?? archives.glb?.size)! }
      : {}),
  };
}

export interface OAuthTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresIn: number | null;
  scope: string | null;
}

export interface LibraryBProfile {
  username: string | null;
  displayName: string | null;
  profileUrl: string | null;
}

export function createLibraryB(options: LibraryBOptions) {
  const { apiUrl, oauthUrl, clientId, clientSecret, http } = options;

  async function call<T>(path: string, ctx: CallContext, what: string, auth = false) {
    const headers: Record<string, string> =
      auth && ctx.accessToken ? { authorization: `Bearer ${ctx.accessToken}` } : {};
    const answer = await http.json<T>(`${apiUrl}${path}`, { signal: ctx.signal, headers });
    if (answer.status < 200 || answer.status >= 300 || !answer.body) {
      const detail = (answer.body as { detail?: string } | null)?.detail;
      // Without our own token a 401/403 on search or details is the library's doing, not the person's.
      const error = statusError(PROVIDER, answer.status || 502, what, typeof detail === 'string' ? detail : undefined);
      if (error.kind === 'auth' && !auth) throw new LibraryError('unavailable', PROVIDER, error.message, error.status);
      throw error;
    }
    return answer.body;
  }

  async function tokenRequest(form: Record<string, string>, signal: AbortSignal): Promise<OAuthTokens> {
    const answer = await http.json<{
      access_token?: string;
      refresh_token?: string;
      expires_in?: number;
      scope?: string;
      error?: string;
    }>(`${oauthUrl}/token/`, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    if (answer.status !== 200 || !answer.body?.access_token) {
      // 400 invalid_grant (a used or expired code, a revoked refresh token) is the person's to fix: auth.
      throw new LibraryError(
        answer.status >= 500 || answer.status === 0 ? 'unavailable' : 'auth',
        PROVIDER,
        `the token endpoint answered ${answer.status}${answer.body?.error ? ` (${answer.body.error})` : ''}`,
        answer.status,
      );
    }
    const body = answer.body;
    return {
      accessToken: body.access_token!,
      refreshToken: body.refresh_token ?? null,
      expiresIn: typeof body.expires_in === 'number' ? body.expires_in : null,
      scope: body.scope ?? null,
    };
  }

  const adapter: LibraryAdapter = {
    id: PROVIDER,
    name: 'Sketchfab',
    homepage: 'https://sketchfab.com',
    credit: 'Model hosted on Sketchfab (sketchfab.com)',
    requiresAccountForImport: true,
    supports: { category: true, license: true, maxPolygons: true, format: true },
    notice: () =>
      clientId && clientSecret
        ? null
        : 'Imports need the platform to be registered with Sketchfab ' +
          '(LIBRARY_B_CLIENT_ID and LIBRARY_B_CLIENT_SECRET); search works without.',
    importAvailable: () => !!(clientId && clientSecret),

    async search(query, ctx) {
      const params = new URLSearchParams({ type: 'models', downloadable: 'true', archives_flavours: 'false' });
      if (query.q) params.set('q', query.q);
      if (query.category && CATEGORY[query.category]) params.set('categories', CATEGORY[query.category]!);
      if (query.license) params.set('license', query.license);
      if (query.maxPolygons !== undefined) params.set('max_face_count', String(query.maxPolygons));
      if (query.format) params.set('available_archive_type', query.format);
      let cursor = typeof query.page === 'string' ? query.page : null;
      const items: LibraryItem[] = [];
      let next: string | null;
      let total: number | undefined;
      do {
        const page = new URLSearchParams(params);
        page.set('count', String(Math.min(UPSTREAM_PAGE, query.pageSize - items.length)));
        if (cursor) page.set('cursor', cursor);
        const body = await call<{
          results?: SkfbModel[];
          cursors?: { next?: string | null };
          next?: string | null;
          totalCount?: number;
        }>(`/search?${page}`, ctx, 'search');
        items.push(...(body.results ?? []).map(toItem));
        if (typeof body.totalCount === 'number') total = body.totalCount;
        next = body.cursors?.next ?? null;
        cursor = next;
      } while (next && items.length < query.pageSize);
      return { items: items.slice(0, query.pageSize), ...(total !== undefined ? { total } : {}), next };
    },

    async get(id, ctx) {
      if (!UID.test(id)) return null;
      try {
        const model = await call<SkfbModel>(`/models/${id}`, ctx, 'model details');
        return { ...toItem(model), description: model.description ?? '', publishedAt: model.publishedAt ?? null };
      } catch (error) {
        if (error instanceof LibraryError && error.kind === 'not_found') return null;
        throw error;
      }
    },

    async downloadPlan(id, ctx): Promise<DownloadPlan> {
      if (!UID.test(id)) throw new LibraryError('not_found', PROVIDER, 'model not found');
      if (!ctx.accessToken) throw new LibraryError('auth', PROVIDER, 'downloads need a connected account');
      const body = await call<Record<string, { url?: string; size?: number } | undefined>>(
        `/models/${id}/download`,
        ctx,
        'download',
        true,
      );
      if (body.gltf?.url) return { kind: 'archive', url: body.gltf.url, size: body.gltf.size, fileName: 'scene.zip' };
      if (body.glb?.url) return { kind: 'glb', url: body.glb.url, size: body.glb.size, fileName: 'scene.glb' };
      throw new LibraryError('not_found', PROVIDER, 'the model has no glTF download');
    },
  };

  return Object.assign(adapter, {
    /** The OAuth2 authorization-code flow with the person's account (LIBRARY_B_OAUTH_URL). */
    oauth: {
      authorizeUrl(state: string, redirectUri: string): string {
        const url = new URL(`${oauthUrl}/authorize/`);
        url.search = new URLSearchParams({
          response_type: 'code',
          client_id: clientId ?? '',
          redirect_uri: redirectUri,
          state,
        }).toString();
        return url.href;
      },
      exchangeCode: (code: string, redirectUri: string, signal: AbortSignal) =>
        tokenRequest(
          {
            grant_type: 'authorization_code',
            code,
            client_id: clientId ?? '',
            client_secret: clientSecret ?? '',
            redirect_uri: redirectUri,
          },
          signal,
        ),
      refresh: (refreshToken: string, signal: AbortSignal) =>
        tokenRequest(
          {
            grant_type: 'refresh_token',
            refresh_token: refreshToken,
            client_id: clientId ?? '',
            client_secret: clientSecret ?? '',
          },
          signal,
        ),
      /** GET /v3/me with the person's token: who is connected. */
      async profile(accessToken: string, signal: AbortSignal): Promise<LibraryBProfile> {
        const me = await call<{ username?: string; displayName?: string; profileUrl?: string }>(
          '/me',
          { signal, accessToken },
          'profile',
          true,
        );
        return {
          username: me.username ?? null,
          displayName: me.displayName ?? null,
          profileUrl: me.profileUrl ?? null,
        };
      },
    },
  });
}

export type LibraryB = ReturnType<typeof createLibraryB>;
