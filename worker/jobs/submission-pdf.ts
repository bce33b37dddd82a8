import { storageKeys } from '../../server/core/platform/storage/index.js';
import { renderRequestPdfInPool } from '../pdf/render-in-pool.js';
import type { RequestPdfInput } from '../pdf/render-request-pdf.js';
import { loadScreenshots, type ScreenshotFile } from '../screenshot-files.js';
import { priceLocale, priceRows } from '../pdf/price-rows.js';
import { RequestGoneError, defineSubmissionStep } from '../submission-step.js';

/**
 * A small JPEG of a screenshot for the PDF, or unreadable. One at a time: sharp uses libuv's threads,
 * and one request should never hold more than one.
 */
async function forPdf(shot: ScreenshotFile): Promise<RequestPdfInput['screenshots'][number]> {
  if (!shot.data) return { mimeType: shot.mimeType, data: null };
  // sharp loads with the first screenshot, not with the worker (cached by Node from then on).
  const { screenshotForPdf } = await import('../pdf/screenshot-for-pdf.js');
  const jpeg = await screenshotForPdf(shot.data);
  return jpeg ? { mimeType: 'image/jpeg', data: jpeg } : { mimeType: shot.mimeType, data: null, unreadable: true };
}

/**
 * Renders the request PDF (see render-request-pdf.ts) in the CPU pool, with every screenshot
 * (PNG, JPEG or WebP) converted by screenshot-for-pdf.ts first, stores it and records its key.
 */
export const submissionPdf = defineSubmissionStep(
  {
    step: 'pdf',
    async run({ deps, submissionId, signal }) {
      const work = await deps.submissions.forWork(submissionId);
      if (!work) throw new RequestGoneError();
      const { submission, projectData } = work;
      const sceneData = projectData.sceneData ?? {};
      const settings = (sceneData.projectSettings ?? {}) as Record<string, unknown>;
      const screenshots: RequestPdfInput['screenshots'] = [];
      for (const shot of await loadScreenshots(deps, submissionId)) screenshots.push(await forPdf(shot));
      const input: RequestPdfInput = {
        requestId: submission.id,
        projectName: work.projectName,
        createdAt: submission.createdAt,
        brandColor: settings.brandColor ?? settings.primaryColor,
        formFields: sceneData.formFields,
        optionBlocks: sceneData.optionBlocks,
        currency: settings.currency,
        formData: submission.formData,
        selectedOptions: submission.selectedOptions,
        // The price stored with the request, never recomputed: the owner sees what submit decided.
        price: submission.price && priceRows(submission.price, priceLocale(projectData)),
        configurationSummary: submission.configurationSummary,
        screenshots,
      };
      let pdf: Buffer;
      try {
        pdf = await renderRequestPdfInPool(deps.cpuPool, input, { signal });
      } catch (error) {
        // Should the renderer still fail on a screenshot (sharp made it, pdfkit could not read
        // it): the owner still gets the request, with the screenshots listed but not embedded.
        if (input.screenshots.length === 0) throw error;
        const listedOnly = input.screenshots.map((shot) => ({
          mimeType: shot.mimeType,
          data: null,
          unreadable: shot.unreadable,
        }));
        pdf = await renderRequestPdfInPool(deps.cpuPool, { ...input, screenshots: listedOnly }, { signal });
      }
      const key = storageKeys.requestPdf(submission.workspaceId, submission.id);
      await deps.storage.put(key, pdf, { contentType: 'application/pdf' });
      return {
        writtenKeys: [key],
        async commit(tx) {
          await deps.submissions.setPdfKey(tx, submissionId, key);
        },
      };
    },
  },
  // The render itself is bounded by the pool (60 s); the rest is storage.
  { timeoutMs: 120_000 },
);
