import { and, eq } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import { submissionScreenshots } from '../platform/db/schema/index.js';

/** A submission's screenshots, as the worker's steps move them from the database to storage. */
export function createSubmissionScreenshotRepository(db: Db) {
  return {
    /** The screenshots, with their bytes while they are not in storage yet. */
    async screenshotsForWork(submissionId: string) {
      return db
        .select()
        .from(submissionScreenshots)
        .where(eq(submissionScreenshots.submissionId, submissionId))
        .orderBy(submissionScreenshots.position);
    },

    /** Records where a screenshot now lives and drops its bytes from the database. */
    async setScreenshotStored(tx: Executor, submissionId: string, position: number, storageKey: string) {
      await tx
        .update(submissionScreenshots)
        .set({ storageKey, data: null })
        .where(and(eq(submissionScreenshots.submissionId, submissionId), eq(submissionScreenshots.position, position)));
    },
  };
}
