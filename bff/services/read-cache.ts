import { LRUCache } from 'lru-cache';
import type { ShareChangeFeed, ShareChangeNotice } from '#core/platform/share-changes.js';
import { projectPrefix } from './read-cache-key.js';

/**
 * A kept answer's headers as the flat `[name, value, ...]` list `writeHead` takes, and where the
 * values each request sets go (-1: not sent).
 */
export interface HeaderTemplate {
  pairs: ReadonlyArray<string | number>;
  origin: number;
  limit: number;
  remaining: number;
  reset: number;
}

/** One kept 200 answer of the server to a public read. */
export interface KeptRead {
  body: Buffer;
  /** The server's strong ETag of this body. */
  etag: string;
  /** The headers the server sent that belong to the answer, not to the client (see KEPT_HEADERS). */
  headers: Record<string, string>;
  /** When the server last confirmed this answer (sent it, or a 304 for it). */
  confirmedAt: number;
  /** Its header lists as cache hits write them, built on first use (cache-hit-fast-path.ts). */
  templates: Array<HeaderTemplate | undefined>;
}

/** What the cache holds for a read, and whether it may be answered without asking the server. */
export interface CacheLookup {
  kept: KeptRead;
  /** Confirmed less than the TTL ago, and the share-change feed vouches that no notice was missed. */
  current: boolean;
}

/** Options of {@link createReadCache}. */
export interface ReadCacheOptions {
  /** How long after the server's last confirmation a kept answer is current (`BFF_CACHE_TTL_MS`, default 5000). */
  ttlMs: number;
  /** Bound of the kept answers, bodies and headers, in bytes (`BFF_CACHE_MAX_BYTES`, default 64 MiB). */
  maxBytes: number;
  /** How often the feed is asked whether every notice was heard, in ms (default 200). */
  checkEveryMs?: number;
}

/** The server's headers a kept answer keeps; the rest (CORS, RateLimit, Date...) belong to each request. */
export const KEPT_HEADERS = ['content-type', 'cache-control', 'content-security-policy', 'vary'] as const;

/** How long past its last confirmation a kept answer may stand in for a server that cannot answer. */
export const STALE_FOR_MS = 60_000;

/** Rough cost of an entry beyond its body (key, headers, object), so tiny answers still count. */
const ENTRY_OVERHEAD_BYTES = 1024;

/**
 * The BFF's cache of public reads, evicted by share-change notices (share-changes.ts). Entries are current only
 * while the feed vouches no notice was missed, and for at most `ttlMs` as a backstop for unpublished notices.
 */
export function createReadCache(options: ReadCacheOptions) {
  const entries = new LRUCache<string, KeptRead>({
    maxSize: options.maxBytes,
    sizeCalculation: (kept, key) => kept.body.byteLength + key.length + ENTRY_OVERHEAD_BYTES,
  });
  let feed: ShareChangeFeed | null = null;
  let vouched = false;
  let timer: NodeJS.Timeout | undefined;
  const heard = () => feed?.heard ?? -1;

  async function check() {
    vouched = feed ? await feed.isCurrent() : false;
  }

  return {
    /** Starts trusting entries while `source` vouches for them. */
    attach(source: ShareChangeFeed) {
      feed = source;
      timer = setInterval(() => void check(), options.checkEveryMs ?? 200);
      timer.unref();
      return check();
    },

    /** The feed's last heard number: an answer is kept only if no notice arrived while it was fetched. */
    get heard() {
      return heard();
    },

    lookup(key: string): CacheLookup | undefined {
      const kept = entries.get(key);
      if (!kept) return undefined;
      return { kept, current: vouched && Date.now() - kept.confirmedAt < options.ttlMs };
    },

    /** Keeps a 200 answer fetched while the feed stood at `heardBefore`. */
    store(key: string, kept: KeptRead, heardBefore: number) {
      // A notice heard meanwhile may be about this very answer: then it is not kept.
      if (heardBefore < 0 || heard() !== heardBefore) return;
      entries.set(key, kept);
    },

    /** The server answered 304 to the kept ETag: current again. */
    confirm(key: string, kept: KeptRead, heardBefore: number) {
      if (heardBefore < 0 || heard() !== heardBefore || entries.get(key) !== kept) return;
      kept.confirmedAt = Date.now();
    },

    /**
     * Whether `kept` may be served past its freshness while the server cannot be asked: still the entry of `key`,
     * the feed vouches that no share change was missed, and bounded for a notice never published (a crash).
     */
    vouchesFor(key: string, kept: KeptRead): boolean {
      return vouched && entries.peek(key) === kept && Date.now() - kept.confirmedAt < STALE_FOR_MS;
    },

    delete(key: string) {
      entries.delete(key);
    },

    /** Entries and their bytes (tests, logs). */
    get size() {
      return { entries: entries.size, bytes: entries.calculatedSize };
    },

    /** The feed's handlers. */
    onNotice({ change }: ShareChangeNotice) {
      if (!change.projectId) {
        entries.clear();
        return;
      }
      const prefix = projectPrefix(change.projectId);
      for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
    },
    onReset() {
      entries.clear();
    },

    close() {
      clearInterval(timer);
    },
  };
}

export type ReadCache = ReturnType<typeof createReadCache>;
