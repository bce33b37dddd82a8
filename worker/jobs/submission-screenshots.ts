import { storageKeys } from '#core/platform/storage/index.js';
import { SCREENSHOT_EXTENSIONS } from '#core/services/submission-steps.js';
import { RequestGoneError, defineSubmissionStep } from '../submission-step.js';

/**
 * Moves a request's screenshots from the database (where submit committed them) to storage and
 * drops their bytes from the row. Writing a key again is harmless, so a retry simply redoes it.
 */
export const submissionScreenshots = defineSubmissionStep(
  {
    step: 'screenshots',
    async run({ deps, submissionId }) {
      const submission = await deps.submissionRows.byId(submissionId);
      if (!submission) throw new RequestGoneError();
      const stored: Array<{ position: number; key: string }> = [];
      for (const shot of await deps.screenshots.screenshotsForWork(submissionId)) {
        if (shot.storageKey || !shot.data) continue;
        const key = storageKeys.screenshot(
          submission.workspaceId,
          submissionId,
          shot.position,
          SCREENSHOT_EXTENSIONS[shot.mimeType] ?? 'bin',
        );
        await deps.storage.put(key, shot.data, { contentType: shot.mimeType });
        stored.push({ position: shot.position, key });
      }
      return {
        writtenKeys: stored.map((s) => s.key),
        async commit(tx) {
          for (const s of stored) await deps.screenshots.setScreenshotStored(tx, submissionId, s.position, s.key);
        },
      };
    },
  },
  // Storage writes of a few screenshots.
  { timeoutMs: 60_000 },
);
