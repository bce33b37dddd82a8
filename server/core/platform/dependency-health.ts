import type { Redis } from 'ioredis';
import type { Db } from './db/client.js';
import { withTimeout } from './deadline.js';
import type { StorageDriver } from './storage/index.js';

/** A dependency the API cannot work without, as `GET /health` and `GET /ready` name it. */
export type Dependency = 'postgres' | 'redis' | 'storage';

/** Options of {@link failingDependencies}. */
export interface DependencyHealthOptions {
  /** How long each dependency may take to answer, in ms (default 2000). */
  timeoutMs?: number;
}

/**
 * The dependencies (Postgres, Redis, and storage when asked) that do not answer a trivial check in time,
 * all asked at once; empty when all answer.
 */
export async function failingDependencies(
  deps: { db: Db; redis: Redis; storage?: StorageDriver },
  options: DependencyHealthOptions = {},
): Promise<Dependency[]> {
  const timeoutMs = options.timeoutMs ?? 2000;
  const checks: Array<[Dependency, () => Promise<unknown>]> = [
    ['postgres', () => deps.db.$client.query('select 1')],
    ['redis', () => deps.redis.ping()],
  ];
  if (deps.storage) checks.push(['storage', () => deps.storage!.check()]);
  const results = await Promise.allSettled(
    checks.map(([name, check]) => withTimeout(check, timeoutMs, `${name} timed out`)),
  );
  return checks.filter((_, i) => results[i]!.status === 'rejected').map(([name]) => name);
}
