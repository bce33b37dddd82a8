import type { WorkerDeps } from './jobs/define-job.js';

export interface ScreenshotFile {
  position: number;
  mimeType: string;
  /** Null only when neither storage nor the database has the bytes any more. */
  data: Buffer | null;
}

/**
 * A request's screenshots with their bytes: from storage once the screenshots step stored them,
 * else still from the database (so the PDF and the e-mail do not depend on that step).
 */
export async function loadScreenshots(deps: WorkerDeps, submissionId: string): Promise<ScreenshotFile[]> {
  const rows = await deps.screenshots.screenshotsForWork(submissionId);
  return Promise.all(
    rows.map(async (row) => ({
      position: row.position,
      mimeType: row.mimeType,
      data: row.storageKey ? await deps.storage.read(row.storageKey) : (row.data ?? null),
    })),
  );
}
