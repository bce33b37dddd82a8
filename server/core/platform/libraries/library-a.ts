import type { LibraryHttp } from './library-http.js';
import { statusError } from './library-http.js';
import { LibraryError } from '../../domain/libraries/library-errors.js';
import { licenceFor } from '../../domain/libraries/licences.js';
import type { CategoryId } from '../../domain/libraries/categories.js';
import {
  SearchSkipped,
  planSize,
  type CallContext,
  type DownloadFile,
  type DownloadPlan,
  type LibraryAdapter,
  type LibraryItem,
} from './types.js';

/**
 * library_a: Poly Haven (no key, every asset CC0). Its API has no text search or paging, so both happen
 * here over the whole catalogue; `/files/{id}` gives a `.gltf` with its `include` map.
 */
export interface LibraryAOptions {
  apiUrl: string;
  http: LibraryHttp;
  /** The largest download the import allows: the resolution picked must fit in it. */
  maxDownloadBytes: number;
}

const PROVIDER = 'library_a';
const ID = /^[a-zA-Z0-9_-]{1,50}$/;

/**
 * Ours → Poly Haven taxonomy slugs; a category left out is one it lacks: search skips it (docs/libraries.md, Search).
 */
const CATEGORY: Partial<Record<CategoryId, string[]>> = {
  furniture: ['furniture'],
  architecture: ['architecture'],
  vehicles: ['vehicles-transport'],
  nature: ['nature'],
  animals: ['nature/wildlife'],
  electronics: ['electronics-appliances'],
  food: ['food-kitchen'],
  fashion: ['apparel-personal-items'],
  art: ['decor-art'],
  props: ['containers-storage', 'tools-equipment'],
};

interface PhAsset {
  name?: string;
  description?: string;
  type?: number;
  date_published?: number;
  download_count?: number;
  authors?: Record<string, string>;
  categories?: string[];
  category?: string;
  tags?: string[];
  thumbnail_url?: string;
}

interface PhFile {
  url?: string;
  size?: number;
  md5?: string;
  include?: Record<string, PhFile>;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .split('/')
    .map((part) =>
      part
        .replace(/&/g, ' ')
        .trim()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, ''),
    )
    .join('/');

function ourCategories(asset: PhAsset): CategoryId[] {
  const path = slug(asset.category ?? '');
  const found = new Set<CategoryId>();
  for (const [ours, theirs] of Object.entries(CATEGORY) as Array<[CategoryId, string[]]>) {
    if (theirs.some((t) => path === t || path.startsWith(`${t}/`))) found.add(ours);
  }
  return [...found];
}

function toItem(id: string, asset: PhAsset): LibraryItem {
  return {
    provider: PROVIDER,
    providerAssetId: id,
    name: asset.name ?? id,
    author: Object.keys(asset.authors ?? {}).join(', ') || 'Poly Haven',
    sourceUrl: `https://polyhaven.com/a/${id}`,
    thumbnailUrl: asset.thumbnail_url ?? `https://cdn.polyhaven.com/asset_img/thumbs/${id}.png?width=256&height=256`,
    tags: asset.tags ?? [],
    categories: ourCategories(asset),
    // Every Poly Haven asset is CC0 (its ToS); the API has no licence field.
    ...licenceFor('cc0'),
    availableFormats: ['gltf'],
    importable: true,
  };
}

function matches(asset: PhAsset, words: string[]): boolean {
  if (words.length === 0) return true;
  const haystack = [asset.name, asset.category, ...(asset.tags ?? []), ...(asset.categories ?? [])]
    .join(' ')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}

export function createLibraryA(options: LibraryAOptions): LibraryAdapter {
  const { apiUrl, http, maxDownloadBytes } = options;

  async function catalogue(category: string | null, ctx: CallContext): Promise<Record<string, PhAsset>> {
    const url = new URL(`${apiUrl}/assets`);
    url.searchParams.set('t', 'models');
    if (category) url.searchParams.set('category', category);
    const answer = await http.json<Record<string, PhAsset>>(url.href, { signal: ctx.signal });
    if (answer.status !== 200 || !answer.body || typeof answer.body !== 'object')
      throw statusError(PROVIDER, answer.status === 200 ? 502 : answer.status, 'search');
    return answer.body;
  }

  return {
    id: PROVIDER,
    name: 'Poly Haven',
    homepage: 'https://polyhaven.com',
    credit: 'Powered by Poly Haven (polyhaven.com)',
    requiresAccountForImport: false,
    supports: { category: true, license: false, maxPolygons: false, format: false },
    notice: () => null,
    importAvailable: () => true,

    async search(query, ctx) {
      if (query.maxPolygons !== undefined) throw new SearchSkipped('Poly Haven does not report polygon counts.');
      if (query.format === 'glb')
        throw new SearchSkipped('Poly Haven offers glTF files only (imports are converted to GLB).');
      let slugs: Array<string | null> = [null];
      if (query.category) {
        const mapped = CATEGORY[query.category];
        if (!mapped) throw new SearchSkipped(`Poly Haven has no "${query.category}" category.`);
        slugs = mapped;
      }
      const offset = typeof query.page === 'number' ? query.page : 0;
      if (query.license && query.license !== 'cc0')
        return { items: [], total: 0, next: null, notices: ['Poly Haven offers CC0 models only.'] };
      const merged = new Map<string, PhAsset>();
      for (const answer of await Promise.all(slugs.map((s) => catalogue(s, ctx)))) {
        for (const [id, asset] of Object.entries(answer)) merged.set(id, asset);
      }
      const words = query.q.toLowerCase().split(/\s+/).filter(Boolean);
      const found = [...merged.entries()]
        .filter(([, asset]) => matches(asset, words))
        .sort(([a, x], [b, y]) => (y.download_count ?? 0) - (x.download_count ?? 0) || a.localeCompare(b));
      const page = found.slice(offset, offset + query.pageSize).map(([id, asset]) => toItem(id, asset));
      const nextOffset = offset + query.pageSize;
      return { items: page, total: found.length, next: nextOffset < found.length ? nextOffset : null };
    },

    async get(id, ctx) {
      if (!ID.test(id)) return null;
      const answer = await http.json<PhAsset>(`${apiUrl}/info/${encodeURIComponent(id)}`, { signal: ctx.signal });
      if (answer.status === 404 || answer.status === 400) return null;
      if (answer.status !== 200 || !answer.body) throw statusError(PROVIDER, answer.status, 'model details');
      if (answer.body.type !== undefined && answer.body.type !== 2) return null; // an HDRI or texture, not a model
      const item = toItem(id, answer.body);
      let downloadSize: number | undefined;
      try {
        downloadSize = planSize(await this.downloadPlan(id, ctx));
      } catch (error) {
        if (!(error instanceof LibraryError)) throw error;
      }
      return {
        ...item,
        description: answer.body.description ?? '',
        publishedAt: answer.body.date_published ? new Date(answer.body.date_published * 1000).toISOString() : null,
        ...(downloadSize !== undefined ? { downloadSize } : {}),
      };
    },

    async downloadPlan(id, ctx): Promise<DownloadPlan> {
      if (!ID.test(id)) throw new LibraryError('not_found', PROVIDER, 'model not found');
      const answer = await http.json<{ gltf?: Record<string, { gltf?: PhFile }> }>(
        `${apiUrl}/files/${encodeURIComponent(id)}`,
        { signal: ctx.signal },
      );
      if (answer.status !== 200 || !answer.body) throw statusError(PROVIDER, answer.status, 'model files');
      const resolutions = answer.body.gltf ?? {};
      const options = Object.entries(resolutions)
        .map(([res, formats]) => ({ res, file: formats?.gltf }))
        .filter((o): o is { res: string; file: PhFile } => !!o.file?.url)
        .map((o) => ({
          ...o,
          total: (o.file.size ?? 0) + Object.values(o.file.include ?? {}).reduce((sum, f) => sum + (f.size ?? 0), 0),
        }));
      if (options.length === 0) throw new LibraryError('not_found', PROVIDER, 'the model has no glTF files');
      // 2K textures first: readiness gives textures up to 2048 px full marks; then smaller, then larger.
      const rank = (res: string) => ({ '2k': 0, '1k': 1, '4k': 2 })[res] ?? 3 + parseInt(res, 10);
      options.sort((a, b) => rank(a.res) - rank(b.res));
      const chosen = options.find((o) => o.total <= maxDownloadBytes) ?? options.sort((a, b) => a.total - b.total)[0];
      const includes: DownloadFile[] = Object.entries(chosen.file.include ?? {}).map(([path, f]) => ({
        path,
        url: f.url ?? '',
        size: f.size,
        md5: f.md5,
      }));
      const mainName = new URL(chosen.file.url!).pathname.split('/').pop() || `${id}.gltf`;
      return {
        kind: 'files',
        main: { path: mainName, url: chosen.file.url!, size: chosen.file.size, md5: chosen.file.md5 },
        includes,
      };
    },
  };
}
