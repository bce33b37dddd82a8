import { emitEvent } from '#core/services/events.js';
import { RequestGoneError, defineSubmissionStep } from '../submission-step.js';

/**
 * Emits `form.submitted` (and `quote.submitted` when priced; docs/api.md, Background steps) with the step's result
 * under dedupe keys, so a retried job emits each once.
 */
export const submissionEvents = defineSubmissionStep(
  {
    step: 'events',
    async run({ deps, submissionId }) {
      const work = await deps.submissionRows.forWork(submissionId);
      if (!work) throw new RequestGoneError();
      const { submission } = work;
      const data = {
        requestId: submission.id,
        projectId: submission.projectId,
        formData: submission.formData,
        selectedOptions: submission.selectedOptions,
        configurationSummary: submission.configurationSummary,
        createdAt: submission.createdAt.toISOString(),
        price: submission.price,
      };
      const base = { workspaceId: submission.workspaceId, projectId: submission.projectId };
      return {
        // The deliveries' outbox rows go back to the step runner, which hands them over after commit.
        async commit(tx) {
          const emitted = [
            await emitEvent(deps, tx, {
              ...base,
              type: 'form.submitted',
              data,
              dedupeKey: `submission:${submission.id}:form.submitted`,
            }),
          ];
          if (submission.price) {
            emitted.push(
              await emitEvent(deps, tx, {
                ...base,
                type: 'quote.submitted',
                data: { ...data, status: submission.status },
                dedupeKey: `submission:${submission.id}:quote.submitted`,
              }),
            );
          }
          return emitted.flatMap((event) => event?.deliveries.map((delivery) => delivery.outbox.id) ?? []);
        },
      };
    },
  },
  // A few inserts.
  { timeoutMs: 30_000 },
);
