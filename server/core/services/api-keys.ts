import { createHash, randomBytes } from 'node:crypto';
import type { ApiKey } from '../platform/db/schema/index.js';
import { createApiKeyRepository } from '../repositories/api-keys.js';
import { conflict, notFound } from '../domain/errors.js';
import type { ServiceDeps } from './service-deps.js';

/** Keys a workspace may hold at once. */
const MAX_KEYS_PER_WORKSPACE = 50;
/** last_used_at is written at most this often per key, off the request's critical path. */
const TOUCH_EVERY_MS = 60_000;

const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** Workspace API keys (docs/api.md, Credentials and permissions): shown once at creation, stored as a hash. */
export function createApiKeyService(deps: Pick<ServiceDeps, 'db'>) {
  const repo = createApiKeyRepository(deps.db);
  return {
    /** The key's row, or null when no key has this value. */
    async authenticate(key: string): Promise<ApiKey | null> {
      const row = await repo.findByHash(hashApiKey(key));
      if (row) void repo.touch(row.id, new Date(Date.now() - TOUCH_EVERY_MS)).catch(() => {});
      return row;
    },
    /** A new key; its value is returned this once and never stored. */
    async create(workspaceId: string, name: string, createdBy: string | null): Promise<{ row: ApiKey; key: string }> {
      if ((await repo.count(workspaceId)) >= MAX_KEYS_PER_WORKSPACE)
        throw conflict(`A workspace holds at most ${MAX_KEYS_PER_WORKSPACE} API keys.`);
      const key = `csk_${randomBytes(32).toString('base64url')}`;
      const row = await repo.create({ workspaceId, name, keyHash: hashApiKey(key), createdBy });
      return { row, key };
    },
    list: (workspaceId: string) => repo.list(workspaceId),
    async delete(workspaceId: string, id: string): Promise<void> {
      if (!(await repo.delete(workspaceId, id))) throw notFound('API key');
    },
  };
}
