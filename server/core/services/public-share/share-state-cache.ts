import { LRUCache } from 'lru-cache';
import type { ShareChangeFeed, ShareChangeNotice } from '../../platform/share-changes.js';
import type { PublicShareRow } from '../../repositories/shares.js';

/** Projects whose share state one process keeps. */
const MAX_SHARES = 50_000;
/** Bound of the kept payloads in bytes; a payload above the entry limit is not kept. */
const BODY_BYTES = 64 * 1024 * 1024;
const BODY_ENTRY_BYTES = 8 * 1024 * 1024;
/** Rough cost of a share's row and verified passwords, so the byte bound also counts states without a payload. */
const STATE_BYTES = 1024;
/** Verified passwords one share keeps (HMACs); when full it starts afresh. */
const MAX_VERIFIED = 64;
/**
 * A safety net, not the mechanism: a change whose notice could not be published (Redis down at
 * that moment) is picked up after this long at the latest.
 */
const STATE_TTL_MS = 30_000;

/** What one process keeps of a share between its changes. */
interface ShareState {
  row: PublicShareRow;
  /** The serialised 200 payload and the ETag it was built for (revisions and signing window). */
  body?: { etag: string; bytes: Buffer };
  /** Keys of passwords verified against this state's hash (see password-check.ts). */
  verified?: Set<string>;
}

/**
 * Recently read share state and what derives from it, kept in memory between changes. Used only while the
 * feed vouches every notice was heard (share-changes.ts), so a revoked token stops at once everywhere.
 */
export function createShareStateCache(load: (projectId: string) => Promise<PublicShareRow | null>) {
  const states = new LRUCache<string, ShareState>({
    max: MAX_SHARES,
    maxSize: BODY_BYTES + MAX_SHARES * STATE_BYTES,
    sizeCalculation: (state) => STATE_BYTES + (state.body?.bytes.length ?? 0),
    ttl: STATE_TTL_MS,
  });
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
      if (kept) return kept.row;
      const heardBefore = feed.heard;
      const row = await load(projectId);
      // A notice heard meanwhile may be about this very row: then it is not kept.
      if (row && feed.heard === heardBefore) states.set(projectId, { row });
      return row;
    },

    /** The payload kept for the project under `etag`, if any. */
    body(projectId: string, etag: string): Buffer | undefined {
      const body = states.get(projectId)?.body;
      return body?.etag === etag ? body.bytes : undefined;
    },

    /** Keeps the payload built for `etag` with the project's state (while that state is kept). */
    keepBody(projectId: string, etag: string, bytes: Buffer) {
      const state = states.peek(projectId);
      if (!state || bytes.length > BODY_ENTRY_BYTES) return;
      // Set again so that its size counts; the state's own age is kept.
      states.set(projectId, { ...state, body: { etag, bytes } }, { noUpdateTTL: true });
    },

    /** Whether a password key was verified against the project's kept state. */
    isVerified(projectId: string, key: string): boolean {
      return states.get(projectId)?.verified?.has(key) ?? false;
    },

    /** Remembers a verified password key with the project's state (while that state is kept). */
    markVerified(projectId: string, key: string) {
      const state = states.peek(projectId);
      if (!state) return;
      if (!state.verified || state.verified.size >= MAX_VERIFIED) state.verified = new Set();
      state.verified.add(key);
    },

    /** The feed's handlers: a notice drops its project, or every project of its workspace. */
    onNotice({ change }: ShareChangeNotice) {
      if (change.projectId) {
        states.delete(change.projectId);
        return;
      }
      for (const [projectId, state] of states.entries())
        if (state.row.workspaceId === change.workspaceId) states.delete(projectId);
    },
    onReset() {
      states.clear();
    },
  };
}
