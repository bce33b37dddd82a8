import { inArray } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import type { Executor } from '../platform/db/client.js';
import { assets, configurations, projects, submissionScreenshots, submissions } from '../platform/db/schema/index.js';

/**
 * Which storage keys a row claims: an asset's model and its delivery file, a project's thumbnail, a cart
 * configuration's picture, a request's screenshots and PDF. The storage sweeper asks before it removes an object; a
 * key missing here belongs to no row.
 */
export function createStoredFileRepository(db: Executor) {
  return {
    async claimed(keys: readonly string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const list = [...keys];
      // Nullable columns first: union() types its rows after its first query.
      const rows = await union(
        db.select({ key: submissions.pdfKey }).from(submissions).where(inArray(submissions.pdfKey, list)),
        db.select({ key: assets.deliveryStorageKey }).from(assets).where(inArray(assets.deliveryStorageKey, list)),
        db.select({ key: projects.thumbnailKey }).from(projects).where(inArray(projects.thumbnailKey, list)),
        db.select({ key: configurations.imageKey }).from(configurations).where(inArray(configurations.imageKey, list)),
        db
          .select({ key: submissionScreenshots.storageKey })
          .from(submissionScreenshots)
          .where(inArray(submissionScreenshots.storageKey, list)),
        db.select({ key: assets.storageKey }).from(assets).where(inArray(assets.storageKey, list)),
      );
      return new Set(rows.flatMap((row) => (row.key ? [row.key] : [])));
    },
  };
}
