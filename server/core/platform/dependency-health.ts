import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from './db/client.js';
import { withTimeout } from './deadline.js';

/** A dependency the API cannot work without, as `GET /health` names it. */
export type Dependency = 'postgres' | 'redis';

/** Options of {@link failingDependencies}. */
export interface DependencyHealthOptions {
  /** How long each dependency may take to answer, in ms (default 2000). */
  timeoutMs?: number;
}

/**
 * The dependencies that do not answer a trivial query in time (Postgres `select 1`, Redis
 * `PING`), both asked at once; empty when all answer. For health checks and load balancers.
 */
export async function failingDependencies({ db, redis }: { db: Db; redis: Redis }, options: DependencyHealthOptions = {}): Promise<Dependency[]> {
  const timeoutMs = options.timeoutMs ?? 2000;
  const [postgres, cache] = await Promise.allSettled([withTimeout(() => db.execute(sql`select 1`), timeoutMs, 'postgres timed out'), withTimeout(() => redis.ping(), timeoutMs, 'redis timed out')]);
  const failing: Dependency[] = [];
  if (postgres.status === 'rejected') failing.push('postgres');
  if (cache.status === 'rejected') failing.push('redis');
  return failing;
}
