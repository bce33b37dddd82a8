import { customerAddress } from '#core/domain/customer-address.js';
import { requestRows } from '../pdf/request-rows.js';
import { ownerMail } from '../request-mails.js';
import { ownerAddresses, pdfAttachment, sendRequestMail } from '../request-mail-delivery.js';
import { RequestGoneError, defineSubmissionStep } from '../submission-step.js';

/** The Message-ID of a request's e-mail: the same on every send, so a re-send is recognisable. */
const requestMessageId = (requestId: string) => `<request-${requestId}@config-share>`;

/** The visitor's address for Reply-To: the form's first e-mail field, else an `email` answer. */
function visitorAddress(formFields: unknown, formData: Record<string, unknown>): string | undefined {
  return (
    customerAddress(formFields, formData) ?? customerAddress([{ id: 'email', type: 'email' }], formData) ?? undefined
  );
}

/**
 * E-mails the owner over the project's SMTP, else SMTP_URL, with the PDF as the only attachment.
 * No address: done with a note; no SMTP at all: failed at once.
 */
export const submissionEmail = defineSubmissionStep(
  {
    step: 'email',
    async run({ deps, submissionId }) {
      const work = await deps.submissionRows.forWork(submissionId);
      if (!work) throw new RequestGoneError();
      const { submission, projectData } = work;
      const sceneData = projectData.sceneData ?? {};
      const settings = (sceneData.projectSettings ?? {}) as Record<string, unknown>;

      const { to, fallback } = await ownerAddresses(deps, submission.workspaceId, settings);
      if (to.length === 0)
        return {
          note: `No e-mail address: ${fallback} and no workspace owner has an e-mail address; nothing was sent.`,
        };
      const attachments = await pdfAttachment(deps, submission);
      const content = ownerMail(requestRows(work), attachments.length > 0);
      await sendRequestMail(deps, settings, {
        to,
        replyTo: visitorAddress(sceneData.formFields, submission.formData),
        ...content,
        messageId: requestMessageId(submission.id),
        headers: { 'X-Config-Share-Request': submission.id },
        attachments,
      });
      const notes = [
        fallback ? `Sent to the workspace's owners: ${fallback}.` : undefined,
        submission.pdfKey ? undefined : 'Sent without the PDF, which could not be rendered.',
      ].filter(Boolean);
      return notes.length > 0 ? { note: notes.join(' ') } : {};
    },
  },
  // Longer than nodemailer's own socket timeouts (60 s), so they report first.
  { timeoutMs: 180_000 },
);
