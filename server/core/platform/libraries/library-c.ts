import type { LibraryHttp } from './library-http.js';
import { statusError } from './library-http.js';
import { LibraryError } from '../../domain/libraries/library-errors.js';
import { licenceFor, unknownLicence } from '../../domain/libraries/licences.js';
import type { CategoryId } from '../../domain/libraries/categories.js';
import { CATEGORIES } from '../../domain/libraries/categories.js';
import { SearchSkipped, type CallContext, type DownloadPlan, type LibraryAdapter, type LibraryItem } from './types.js';

/**
 * library_c: Smithsonian Open Access (api.data.gov key, DEMO_KEY by default). The licence is the 3D media item's
 * `usage.access`, never the record's; there is no reliable server-side 3D filter, so rows are filtered here too.
 */
export interface LibraryCOptions {
  apiUrl: string;
  apiKey?: string;
  http: LibraryHttp;
}

const PROVIDER = 'library_c';
/** Record ids as the API gives them (`edanmdm:nasm_A19610048000`). */
const ID = /^[A-Za-z0-9:_.-]{1,200}$/;
const CATEGORY_PATH: Partial<Record<CategoryId, string>> = {
  art: 'art_design',
  history: 'history_culture',
  electronics: 'science_technology',
};

interface Resource {
  filename?: string;
  url?: string;
  category?: string;
  type?: string;
  attributes?: Array<Record<string, unknown>>;
}
interface Media {
  type?: string;
  content?: string;
  thumbnail?: string;
  usage?: { access?: string };
  resources?: Resource[];
}
interface Row {
  id?: string;
  url?: string;
  title?: string;
  content?: {
    descriptiveNonRepeating?: { record_link?: string; data_source?: string; online_media?: { media?: Media[] } };
    freetext?: {
      name?: Array<{ content?: string }>;
      topic?: Array<{ content?: string }>;
      objectType?: Array<{ content?: string }>;
      notes?: Array<{ content?: string }>;
    };
    indexedStructured?: { topic?: string[]; object_type?: string[] };
  };
}
interface Envelope<T> {
  status?: number;
  responseCode?: number;
  response?: T & { error?: string };
  error?: { code?: string; message?: string };
}

function attribute(resource: Resource, key: string): unknown {
  for (const entry of resource.attributes ?? []) {
    for (const [k, v] of Object.entries(entry)) if (k.toUpperCase() === key) return v;
  }
  return undefined;
}
const isGlb = (r: Resource) =>
  String(attribute(r, 'MODEL_FILE_TYPE') ?? '').toLowerCase() === 'glb' || /\.glb$/i.test(r.filename ?? '');
const isDraco = (r: Resource) =>
  String(attribute(r, 'DRACO_COMPRESSED') ?? '').toLowerCase() === 'true' || /draco/i.test(r.filename ?? '');

/** The 3D media item and its best GLB: not Draco-compressed if there is one, then the higher resolution. */
function model3d(row: Row): { media: Media; glb: Resource } | null {
  const QUALITY: Record<string, number> = {
    'Medium resolution': 0,
    'Low resolution': 1,
    'iOS AR model': 2,
    'Full resolution': 3,
  };
  for (const media of row.content?.descriptiveNonRepeating?.online_media?.media ?? []) {
    if (media.type !== '3d_voyager') continue;
    const glbs = (media.resources ?? []).filter((r) => r.url && isGlb(r));
    glbs.sort(
      (a, b) =>
        Number(isDraco(a)) - Number(isDraco(b)) || (QUALITY[a.category ?? ''] ?? 9) - (QUALITY[b.category ?? ''] ?? 9),
    );
    if (glbs[0]) return { media, glb: glbs[0] };
  }
  return null;
}

function toItem(row: Row): LibraryItem | null {
  const found = model3d(row);
  const id = row.url ?? row.id;
  if (!found || !id) return null;
  const { media, glb } = found;
  const access = media.usage?.access?.trim();
  const licence = access?.toUpperCase() === 'CC0' ? licenceFor('cc0') : unknownLicence(access || undefined);
  const text = [
    row.title,
    ...(row.content?.indexedStructured?.topic ?? []),
    ...(row.content?.indexedStructured?.object_type ?? []),
  ]
    .join(' ')
    .toLowerCase();
  const categories = CATEGORIES.filter((c) => text.includes(c.id) || text.includes(c.label.toLowerCase())).map(
    (c) => c.id,
  );
  const size = Number(attribute(glb, 'FILE_SIZE'));
  return {
    provider: PROVIDER,
    providerAssetId: id,
    name: row.title ?? id,
    author: row.content?.freetext?.name?.[0]?.content ?? 'Smithsonian Institution',
    sourceUrl: row.content?.descriptiveNonRepeating?.record_link ?? media.content ?? 'https://3d.si.edu',
    thumbnailUrl: media.thumbnail ?? '',
    tags: [...(row.content?.indexedStructured?.topic ?? [])],
    categories,
    ...licence,
    availableFormats: ['glb'],
    importable: true,
    ...(Number.isFinite(size) && size > 0 ? { downloadSize: size } : {}),
  };
}

export function createLibraryC(options: LibraryCOptions): LibraryAdapter {
  const { apiUrl, http } = options;
  const apiKey = options.apiKey || 'DEMO_KEY';

  async function call<T>(path: string, params: URLSearchParams, ctx: CallContext, what: string): Promise<Envelope<T>> {
    params.set('api_key', apiKey);
    const answer = await http.json<Envelope<T>>(`${apiUrl}${path}?${params}`, { signal: ctx.signal });
    const code = answer.body?.error?.code;
    if (code === 'OVER_RATE_LIMIT' || answer.status === 429)
      throw new LibraryError(
        'rate_limited',
        PROVIDER,
        `${what}: over the api.data.gov rate limit${options.apiKey ? '' : ' (DEMO_KEY; set LIBRARY_C_API_KEY)'}`,
        429,
      );
    if (code === 'API_KEY_INVALID' || code === 'API_KEY_MISSING')
      throw new LibraryError(
        'unavailable',
        PROVIDER,
        `${what}: the platform's api.data.gov key was refused (${code})`,
        answer.status,
      );
    if (answer.status === 404) throw new LibraryError('not_found', PROVIDER, `${what}: not found`, 404);
    if (answer.status !== 200 || !answer.body?.response)
      throw statusError(PROVIDER, answer.status || 502, what, answer.body?.response?.error);
    return answer.body;
  }

  return {
    id: PROVIDER,
    name: 'Smithsonian Open Access',
    homepage: 'https://www.si.edu/openaccess',
    credit: 'Courtesy of the Smithsonian Institution (si.edu/openaccess)',
    requiresAccountForImport: false,
    supports: { category: true, license: false, maxPolygons: false, format: false },
    notice: () =>
      options.apiKey ? null : 'Using the api.data.gov DEMO_KEY: a low request rate; set LIBRARY_C_API_KEY.',
    importAvailable: () => true,

    async search(query, ctx) {
      if (query.maxPolygons !== undefined) throw new SearchSkipped('The Smithsonian does not report polygon counts.');
      if (query.format === 'gltf') throw new SearchSkipped('The Smithsonian offers GLB files only.');
      if (query.license && query.license !== 'cc0')
        return { items: [], total: 0, next: null, notices: ['The Smithsonian offers CC0 3D models only.'] };
      const start = typeof query.page === 'number' ? query.page : 0;
      const terms = [query.q.trim() || '*', 'online_media_type:"3D Models"'];
      let path = '/search';
      if (query.category) {
        const categoryPath = CATEGORY_PATH[query.category];
        if (categoryPath) path = `/category/${categoryPath}/search`;
        else terms.push(query.category);
      }
      const params = new URLSearchParams({
        q: terms.join(' AND '),
        start: String(start),
        rows: String(query.pageSize),
      });
      const body = await call<{ rows?: Row[]; rowCount?: number }>(path, params, ctx, 'search');
      const rows = body.response?.rows ?? [];
      const rowCount = body.response?.rowCount ?? 0;
      const items = rows.map(toItem).filter((i): i is LibraryItem => i !== null);
      const nextStart = start + query.pageSize;
      return { items, total: rowCount, next: rows.length > 0 && nextStart < rowCount ? nextStart : null };
    },

    async get(id, ctx) {
      if (!ID.test(id)) return null;
      try {
        const body = await call<Row>(`/content/${encodeURIComponent(id)}`, new URLSearchParams(), ctx, 'model details');
        const row = body.response as Row;
        const item = toItem(row);
        if (!item) return null;
        return { ...item, description: row.content?.freetext?.notes?.[0]?.content ?? '', publishedAt: null };
      } catch (error) {
        if (error instanceof LibraryError && error.kind === 'not_found') return null;
        throw error;
      }
    },

    async downloadPlan(id, ctx): Promise<DownloadPlan> {
      const body = await call<Row>(`/content/${encodeURIComponent(id)}`, new URLSearchParams(), ctx, 'model details');
      const found = model3d(body.response as Row);
      if (!found) throw new LibraryError('not_found', PROVIDER, 'the record has no GLB 3D model');
      const size = Number(attribute(found.glb, 'FILE_SIZE'));
      return {
        kind: 'glb',
        url: found.glb.url!,
        fileName: found.glb.filename ?? 'model.glb',
        ...(Number.isFinite(size) && size > 0 ? { size } : {}),
      };
    },
  };
}
