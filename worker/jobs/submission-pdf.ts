import { storageKeys } from '#core/platform/storage/index.js';
import { renderRequestPdfInPool } from '../pdf/render-in-pool.js';
import type { RequestPdfInput } from '../pdf/render-request-pdf.js';
import { loadScreenshots, type ScreenshotFile } from '../screenshot-files.js';
import { requestRows } from '../pdf/request-rows.js';
import { fetchLogo } from '../pdf/fetch-logo.js';
import { parseScene } from '#core/wire/configurator/index.js';
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

/** The merchant's logo as the PDF embeds it, or null: none set, not loaded within 5 s, or not an image. */
async function logoFor(logoUrl: string | null): Promise<Buffer | null> {
  const fetched = logoUrl ? await fetchLogo(logoUrl) : null;
  if (!fetched) return null;
  const { logoForPdf } = await import('../pdf/logo-for-pdf.js');
  return logoForPdf(fetched);
}

/**
 * Renders the request PDF (see render-request-pdf.ts) in the CPU pool, with every screenshot
 * (PNG, JPEG or WebP) converted by screenshot-for-pdf.ts first, stores it and records its key.
 */
export const submissionPdf = defineSubmissionStep(
  {
    step: 'pdf',
    async run({ deps, submissionId, signal }) {
      const work = await deps.submissionRows.forWork(submissionId);
      if (!work) throw new RequestGoneError();
      const { submission, projectData } = work;
      const settings = (projectData.sceneData?.projectSettings ?? {}) as Record<string, unknown>;
      const { branding } = parseScene(projectData).scene.settings;
      // Fetched while the screenshots convert.
      const logo = logoFor(branding.logoUrl);
      const screenshots: RequestPdfInput['screenshots'] = [];
      for (const shot of await loadScreenshots(deps, submissionId)) screenshots.push(await forPdf(shot));
      const input: RequestPdfInput = {
        // The price stored with the request, never recomputed: the owner sees what submit decided.
        rows: requestRows(work),
        brandColor: settings.brandColor ?? settings.primaryColor ?? branding.primaryColor,
        logo: await logo,
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
          await deps.submissionRows.setPdfKey(tx, submissionId, key);
        },
      };
    },
  },
  // The render itself is bounded by the pool (60 s); the rest is storage.
  { timeoutMs: 120_000 },
);
