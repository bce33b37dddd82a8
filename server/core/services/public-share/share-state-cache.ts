import { LRUCache } from 'lru-cache';
import type { ShareChangeFeed, ShareChangeNotice } from '../../platform/share-changes.js';
import type { PublicShareRow } from '../../repositories/shares.js';

/** Projects whose share state one process keeps. */
const MAX_SHARES = 50_000;
/**
 * A safety net, not the mechanism: a change whose notice could not be published (Redis down at
 * that moment) is picked up after this long at the latest.
 */
const STATE_TTL_MS = 30_000;

/**
 * The public share state (token, enabled, billing, embed hosts, password hash, revisions) of
 * recently read projects, kept in memory between changes, so a public read or a 304 needs no
 * Postgres query while nothing changed. Entries go when a share-change notice names their project
 * or workspace; they are used only while the feed vouches that every notice so far was heard
 * (see share-changes.ts), so a revoked token stops at once on every process.
 */
export function createShareStateCache(load: (projectId: string) => Promise<PublicShareRow | null>) {
  const states = new LRUCache<string, PublicShareRow>({ max: MAX_SHARES, ttl: STATE_TTL_MS });
  let feed: ShareChangeFeed | null = null;
  const isCurrent = () => (feed ? feed.isCurrent() : Promise.resolve(false));

  return {
    /** Starts trusting memory, as long as `source` vouches for it. */
    attach(source: ShareChangeFeed) {
      feed = source;
    },

    /** Whether memory may be trusted right now (never rejects). */
    isCurrent,

    /** The project's share state: from memory when current (`current`: a check already started), else from Postgres. */
    async get(projectId: string, current = isCurrent()): Promise<PublicShareRow | null> {
      if (!feed || !(await current)) return load(projectId);
      const kept = states.get(projectId);
      if (kept) return kept;
      const heardBefore = feed.heard;
      const row = await load(projectId);
      // A notice heard meanwhile may be about this very row: then it is not kept.
      if (row && feed.heard === heardBefore) states.set(projectId, row);
      return row;
    },

    /** The feed's handlers: a notice drops its project, or every project of its workspace. */
    onNotice({ change }: ShareChangeNotice) {
      if (change.projectId) {
        states.delete(change.projectId);
        return;
      }
      for (const [projectId, row] of states.entries())
        if (row.workspaceId === change.workspaceId) states.delete(projectId);
    },
    onReset() {
      states.clear();
    },
  };
}

export type ShareStateCache = ReturnType<typeof createShareStateCache>;
