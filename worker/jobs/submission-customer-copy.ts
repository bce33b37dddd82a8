import { customerAddress } from '#core/domain/customer-address.js';
import { requestRows } from '../pdf/request-rows.js';
import { customerCopyMail } from '../request-mails.js';
import { ownerAddresses, pdfAttachment, sendRequestMail } from '../request-mail-delivery.js';
import { RequestGoneError, defineSubmissionStep } from '../submission-step.js';

/** Its own Message-ID, fixed like the owner's, so a re-send is recognisable. */
const copyMessageId = (requestId: string) => `<request-${requestId}-copy@config-share>`;

/**
 * Sends the visitor a copy of their request ("We received your request") with the PDF, at the form's
 * first e-mail field, replies going to the owner. A request has this step only when the project's
 * `notifications.customerCopy` is on and that field was filled in (submit decides).
 */
export const submissionCustomerCopy = defineSubmissionStep(
  {
    step: 'customerCopy',
    async run({ deps, submissionId }) {
      const work = await deps.submissionRows.forWork(submissionId);
      if (!work) throw new RequestGoneError();
      const { submission, projectData } = work;
      const sceneData = projectData.sceneData ?? {};
      const settings = (sceneData.projectSettings ?? {}) as Record<string, unknown>;
      const to = customerAddress(sceneData.formFields, submission.formData);
      // The form changed since the submit and lost its e-mail field: nobody to send to.
      if (!to) return { note: 'Not sent: the form has no e-mail field with an address any more.' };
      const { to: owners } = await ownerAddresses(deps, submission.workspaceId, settings);
      const attachments = await pdfAttachment(deps, submission);
      await sendRequestMail(deps, settings, {
        to,
        replyTo: owners.length > 0 ? owners : undefined,
        ...customerCopyMail(requestRows(work), attachments.length > 0),
        messageId: copyMessageId(submission.id),
        headers: { 'X-Config-Share-Request': submission.id },
        attachments,
      });
      const notes = [
        owners.length ? undefined : 'Sent without Reply-To: neither the project nor its workspace has an address.',
        submission.pdfKey ? undefined : 'Sent without the PDF, which could not be rendered.',
      ].filter(Boolean);
      return notes.length > 0 ? { note: notes.join(' ') } : {};
    },
  },
  // Longer than nodemailer's own socket timeouts (60 s), so they report first.
  { timeoutMs: 180_000 },
);
