import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Db } from '../../platform/db/client.js';
import { PROVIDER_IDS, type ProviderId } from '../../platform/db/schema/index.js';
import {
  SearchSkipped,
  type Libraries,
  type LibraryAdapter,
  type LibraryItem,
  type LibrarySearchQuery,
  type LibrarySearchPage,
} from '../../platform/libraries/index.js';
import { withTimeout, TimeoutError } from '../../platform/deadline.js';
import { CATEGORIES, isCategory } from '../../domain/libraries/categories.js';
import { LICENSE_FILTERS, blockedReason, type LicenseFilter } from '../../domain/libraries/licences.js';
import { LibraryError, libraryUnavailable } from '../../domain/libraries/library-errors.js';
import { decodeCursor, encodeCursor, filtersDigest } from '../../domain/libraries/search-cursor.js';
import { invalidRequest, notFound } from '../../domain/errors.js';
import { createImportRepository } from '../../repositories/imports.js';
import type { LibraryConnectionService } from './library-connection.js';
import type { ServiceLog } from '../service-deps.js';

/**
 * Search across the online libraries (docs/libraries.md, Search), all asked at once and interleaved round-robin.
 * Answers are cached briefly in Redis so paging and popular queries spare the libraries' rate limits.
 */
export interface SearchParams {
  q?: string;
  providers?: string;
  category?: string;
  license?: string;
  commercial?: string;
  format?: string;
  maxPolygons?: string;
  pageSize?: string;
  cursor?: string;
}

export interface LibraryStatus {
  provider: ProviderId;
  status: 'ok' | 'error' | 'skipped' | 'exhausted';
  count: number;
  total?: number;
  message?: string;
  notices?: string[];
}

export interface LibrarySearchOptions {
  db: Db;
  redis: Redis;
  prefix: string;
  libraries: Libraries;
  connections: LibraryConnectionService;
  /** LIBRARY_TIMEOUT_MS. */
  timeoutMs: number;
  log: ServiceLog;
  /** How long a library's answer is reused (default 60 s). */
  cacheSeconds?: number;
}

const DEFAULT_PAGE_SIZE = 24;
const MAX_PAGE_SIZE = 48;
const field = (name: string, message: string) =>
  invalidRequest(`${name} ${message}.`, [{ field: `querystring.${name}`, message }]);

/** The search parameters, checked (400 invalid_request naming the field). */
function parseParams(params: SearchParams) {
  const q = (params.q ?? '').trim();
  if (q.length > 200) throw field('q', 'must be at most 200 characters');
  let providers: ProviderId[] = [...PROVIDER_IDS];
  if (params.providers !== undefined && params.providers.trim() !== '') {
    const asked = [
      ...new Set(
        params.providers
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = asked.filter((p) => !(PROVIDER_IDS as readonly string[]).includes(p));
    if (unknown.length)
      throw field('providers', `has unknown libraries (${unknown.join(', ')}); use ${PROVIDER_IDS.join(', ')}`);
    providers = PROVIDER_IDS.filter((p) => asked.includes(p));
  }
  if (params.category !== undefined && params.category !== '' && !isCategory(params.category))
    throw field('category', `must be one of ${CATEGORIES.map((c) => c.id).join(', ')}`);
  if (
    params.license !== undefined &&
    params.license !== '' &&
    !(LICENSE_FILTERS as readonly string[]).includes(params.license)
  )
    throw field('license', `must be one of ${LICENSE_FILTERS.join(', ')}`);
  const commercial = params.commercial ?? '1';
  if (commercial !== '0' && commercial !== '1') throw field('commercial', 'must be 0 or 1');
  if (params.format !== undefined && params.format !== '' && params.format !== 'glb' && params.format !== 'gltf')
    throw field('format', 'must be glb or gltf');
  let maxPolygons: number | undefined;
  if (params.maxPolygons !== undefined && params.maxPolygons !== '') {
    if (!/^\d{1,9}$/.test(params.maxPolygons) || Number(params.maxPolygons) < 1)
      throw field('maxPolygons', 'must be a positive integer');
    maxPolygons = Number(params.maxPolygons);
  }
  let pageSize = DEFAULT_PAGE_SIZE;
  if (params.pageSize !== undefined && params.pageSize !== '') {
    if (!/^\d{1,3}$/.test(params.pageSize) || Number(params.pageSize) < 1 || Number(params.pageSize) > MAX_PAGE_SIZE)
      throw field('pageSize', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
    pageSize = Number(params.pageSize);
  }
  return {
    q,
    providers,
    category: params.category || undefined,
    license: (params.license || undefined) as LicenseFilter | undefined,
    commercial: commercial === '1',
    format: (params.format || undefined) as 'glb' | 'gltf' | undefined,
    maxPolygons,
    pageSize,
  };
}

/** Round-robin: the first of each library, then the second of each... */
function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  for (let i = 0; lists.some((list) => i < list.length); i++)
    for (const list of lists) if (i < list.length) out.push(list[i]);
  return out;
}

export function createLibrarySearchService(options: LibrarySearchOptions) {
  const { redis, prefix, libraries, connections, timeoutMs, log } = options;
  const cacheSeconds = options.cacheSeconds ?? 60;
  const imports = createImportRepository(options.db);

  /** Marks what cannot be imported here: blocked licences, imports not set up on the platform. */
  function judged(item: LibraryItem, adapter: LibraryAdapter): LibraryItem {
    if (item.licenseTier === 'blocked') return { ...item, importable: false, notImportableReason: blockedReason(item) };
    if (!adapter.importAvailable())
      return {
        ...item,
        importable: false,
        notImportableReason: `Imports from ${adapter.id} are not set up on this platform.`,
      };
    return item;
  }

  /** One library's page, from the cache or the library; only answers are cached, never failures. */
  async function ask(adapter: LibraryAdapter, query: LibrarySearchQuery): Promise<LibrarySearchPage> {
    const digest = createHash('sha256').update(JSON.stringify(query)).digest('base64url');
    const key = `${prefix}:lib:search:${adapter.id}:${digest}`;
    const cached = await redis.get(key).catch(() => null);
    if (cached) return JSON.parse(cached) as LibrarySearchPage;
    const page = await withTimeout(
      (signal) => adapter.search(query, { signal }),
      timeoutMs,
      `${adapter.name} did not answer within ${timeoutMs} ms`,
    );
    // Written once the answer is on its way (its JSON included): the answer never waits for the
    // cache; a lost write costs one more library call.
    setImmediate(() => void redis.set(key, JSON.stringify(page), 'EX', cacheSeconds).catch(() => {}));
    return page;
  }

  return {
    /** GET /external-assets/providers. */
    async providers(personId: string) {
      const connection = await connections.status(personId);
      return {
        providers: libraries.list.map((adapter) => ({
          id: adapter.id,
          name: adapter.name,
          homepage: adapter.homepage,
          credit: adapter.credit,
          requiresAccountForImport: adapter.requiresAccountForImport,
          supports: adapter.supports,
          importAvailable: adapter.id === 'library_b' ? connections.available() : adapter.importAvailable(),
          ...(adapter.id === 'library_b'
            ? {
                connection: {
                  connected: connection.connected,
                  username: connection.username,
                  displayName: connection.displayName,
                  profileUrl: connection.profileUrl,
                  connectedAt: connection.connectedAt,
                },
              }
            : {}),
          ...(adapter.notice() ? { notice: adapter.notice()! } : {}),
        })),
        categories: CATEGORIES.map((c) => ({ ...c })),
      };
    },

    /** GET /external-assets/search. */
    async search(params: SearchParams) {
      const parsed = parseParams(params);
      const digest = filtersDigest({ ...parsed, providers: parsed.providers.join(',') });
      const state = params.cursor
        ? decodeCursor(params.cursor, digest)
        : { pages: Object.fromEntries(parsed.providers.map((p) => [p, null])) };
      const results = await Promise.all(
        parsed.providers.map(
          async (provider): Promise<{ status: LibraryStatus; items: LibraryItem[]; next: unknown }> => {
            const adapter = libraries.byId[provider];
            if (!(provider in state.pages))
              return {
                status: { provider, status: 'exhausted', count: 0, message: 'No more results.' },
                items: [],
                next: null,
              };
            const query: LibrarySearchQuery = {
              q: parsed.q,
              pageSize: parsed.pageSize,
              page: state.pages[provider] ?? null,
              ...(parsed.category ? { category: parsed.category as LibrarySearchQuery['category'] } : {}),
              ...(parsed.license ? { license: parsed.license } : {}),
              ...(parsed.format ? { format: parsed.format } : {}),
              ...(parsed.maxPolygons !== undefined ? { maxPolygons: parsed.maxPolygons } : {}),
            };
            try {
              const page = await ask(adapter, query);
              let items = page.items.map((item) => judged(item, adapter));
              const notices = [...(page.notices ?? []), ...(adapter.notice() ? [adapter.notice()!] : [])];
              if (parsed.commercial) {
                const before = items.length;
                items = items.filter((item) => item.commercialUseAllowed);
                if (items.length < before)
                  notices.push(
                    `${before - items.length} model(s) without a clear commercial right hidden (commercial=1).`,
                  );
              }
              // Without a polygon count a model cannot be shown to fit maxPolygons: left out.
              if (parsed.maxPolygons !== undefined)
                items = items.filter(
                  (item) => item.polygonCount !== undefined && item.polygonCount <= parsed.maxPolygons!,
                );
              const status: LibraryStatus = {
                provider,
                status: page.next === null ? 'exhausted' : 'ok',
                count: items.length,
                ...(page.total !== undefined ? { total: page.total } : {}),
                ...(notices.length ? { notices } : {}),
              };
              return { status, items, next: page.next };
            } catch (error) {
              if (error instanceof SearchSkipped)
                return {
                  status: { provider, status: 'skipped', count: 0, message: error.message },
                  items: [],
                  next: null,
                };
              const message =
                error instanceof TimeoutError
                  ? error.message
                  : error instanceof LibraryError
                    ? `${adapter.name}: ${error.message}`
                    : `${adapter.name} could not be searched right now.`;
              if (!(error instanceof TimeoutError) && !(error instanceof LibraryError))
                log.warn({ provider, err: error }, 'library search failed');
              // A failing library keeps its place: the next page asks it again from where it was.
              return {
                status: { provider, status: 'error', count: 0, message },
                items: [],
                next: state.pages[provider] ?? null,
              };
            }
          },
        ),
      );
      const pages: Record<string, unknown> = {};
      for (const r of results)
        if (r.status.status === 'ok' || r.status.status === 'error') pages[r.status.provider] = r.next;
      const more = results.some((r) => r.status.status === 'ok');
      return {
        items: interleave(results.map((r) => r.items)),
        nextCursor: more ? encodeCursor({ pages }, digest) : null,
        providers: results.map((r) => r.status),
      };
    },

    /**
     * GET /external-assets/items/:provider/:id: the model with details, whether the workspace has
     * it, and the library's credit.
     */
    async item(workspaceId: string, provider: string, id: string) {
      if (!(PROVIDER_IDS as readonly string[]).includes(provider)) throw notFound('Library');
      const adapter = libraries.byId[provider as ProviderId];
      let item: LibraryItem | null;
      try {
        item = await withTimeout(
          (signal) => adapter.get(id, { signal }),
          timeoutMs,
          `${adapter.name} did not answer within ${timeoutMs} ms`,
        );
      } catch (error) {
        if (error instanceof LibraryError && error.kind === 'not_found') throw notFound('Model');
        throw libraryUnavailable(provider, error instanceof Error ? error.message : 'no answer');
      }
      if (!item) throw notFound('Model');
      const asset = await imports.importedAsset(workspaceId, provider, item.providerAssetId);
      return {
        asset: judged(item, adapter),
        alreadyImported: asset ? { assetId: asset.id } : null,
        provider: { name: adapter.name, credit: adapter.credit, homepage: adapter.homepage },
      };
    },
  };
}
