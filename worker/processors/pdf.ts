import { storageKeys } from '../../server/core/storage/index.js';
import { renderRequestPdfInThread } from '../pdf/render-in-thread.js';
import type { RequestPdfInput } from '../pdf/render-request-pdf.js';
import { loadScreenshots } from '../screenshot-files.js';
import { RequestGoneError, type StepProcessor } from '../submission-step.js';

/** Renders the request PDF (see render-request-pdf.ts) in a worker thread, stores it and records its key. */
export const pdfStep: StepProcessor = {
  step: 'pdf',
  async run({ deps, submissionId }) {
    const work = await deps.submissions.forWork(submissionId);
    if (!work) throw new RequestGoneError();
    const { submission, projectData } = work;
    const sceneData = projectData.sceneData ?? {};
    const settings = (sceneData.projectSettings ?? {}) as Record<string, unknown>;
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
      configurationSummary: submission.configurationSummary,
      screenshots: await loadScreenshots(deps, submissionId),
    };
    let pdf: Buffer;
    try {
      pdf = await renderRequestPdfInThread(input);
    } catch (error) {
      // A screenshot whose image data is corrupt (its header was fine) breaks the decoder: the
      // owner still gets the request, with the screenshots listed but not embedded.
      if (input.screenshots.length === 0) throw error;
      pdf = await renderRequestPdfInThread({ ...input, screenshots: input.screenshots.map((shot) => ({ mimeType: shot.mimeType, data: null })) });
    }
    const key = storageKeys.requestPdf(submission.workspaceId, submission.id);
    await deps.storage.put(key, pdf, 'application/pdf');
    return {
      writtenKeys: [key],
      async commit(tx) {
        await deps.submissions.setPdfKey(tx, submissionId, key);
      },
    };
  },
};
