import { UnrecoverableError } from 'bullmq';
import { readFormFields } from '../../server/core/wire/form-fields.js';
import { isEmailAddress } from '../../server/core/wire/form-field-rules.js';
import { formRows, formatDate, optionRows } from '../pdf/request-rows.js';
import { priceLines } from '../pdf/price-rows.js';
import { RequestGoneError, defineSubmissionStep } from '../submission-step.js';

/** The Message-ID of a request's e-mail: the same on every send, so a re-send is recognisable. */
const requestMessageId = (requestId: string) => `<request-${requestId}@config-share>`;

/** The visitor's address, from the form's e-mail field (or an `email` answer), for Reply-To. */
function visitorAddress(formFields: unknown, formData: Record<string, unknown>): string | undefined {
  const emailField = readFormFields(formFields).find((f) => f.type === 'email' && typeof formData[f.id] === 'string');
  const value = formData[emailField?.id ?? 'email'];
  return typeof value === 'string' && isEmailAddress(value.trim()) ? value.trim() : undefined;
}

/** Recipients from emailAdminAddress: one address, or several separated by commas or semicolons. */
function adminRecipients(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(isEmailAddress);
}

/**
 * E-mails the owner over the project's SMTP, else SMTP_URL, with the PDF as the only attachment.
 * No address: done with a note; no SMTP at all: failed at once.
 */
export const submissionEmail = defineSubmissionStep(
  {
    step: 'email',
    async run({ deps, submissionId }) {
      const work = await deps.submissions.forWork(submissionId);
      if (!work) throw new RequestGoneError();
      const { submission, projectData, projectName } = work;
      const sceneData = projectData.sceneData ?? {};
      const settings = (sceneData.projectSettings ?? {}) as Record<string, unknown>;

      // The project's address, else the workspace's owners: the request must reach somebody.
      let to = adminRecipients(settings.emailAdminAddress);
      let note: string | undefined;
      if (to.length === 0) {
        const configured = typeof settings.emailAdminAddress === 'string' && settings.emailAdminAddress.trim() !== '';
        const why = configured
          ? "the project's emailAdminAddress is not a valid e-mail address"
          : 'the project has no emailAdminAddress';
        to = adminRecipients((await deps.submissions.ownerEmails(submission.workspaceId)).join(','));
        if (to.length === 0)
          return { note: `No e-mail address: ${why} and no workspace owner has an e-mail address; nothing was sent.` };
        note = `Sent to the workspace's owners: ${why}.`;
      }
      // nodemailer loads with the first e-mail, not with the worker (cached by Node from then on).
      const { ProjectMailError, isPermanentSmtpError, mailRouteFor, sendMail } = await import('../mail.js');
      const route = mailRouteFor(settings, deps.config);
      if (!route)
        throw new UnrecoverableError(
          "No SMTP server is configured: set the project's smtpHost settings or the platform's SMTP_URL.",
        );

      const attachments: Array<{ filename: string; content: Buffer; contentType: string }> = [];
      if (submission.pdfKey) {
        attachments.push({
          filename: `request-${submission.id}.pdf`,
          content: await deps.storage.read(submission.pdfKey),
          contentType: 'application/pdf',
        });
      }

      const lines = [
        `A visitor sent a request for "${projectName}".`,
        '',
        `Request: ${submission.id}`,
        `Date: ${formatDate(submission.createdAt)}`,
        '',
        ...formRows(sceneData.formFields, submission.formData).map(([label, value]) => `${label}: ${value}`),
      ];
      const options = optionRows(sceneData.optionBlocks, submission.selectedOptions);
      if (options.length > 0)
        lines.push('', 'Selected options:', ...options.map(([name, value]) => `  ${name}: ${value}`));
      if (submission.price) lines.push('', ...priceLines(submission, projectData));
      if (submission.configurationSummary.trim())
        lines.push('', 'Configuration summary:', submission.configurationSummary.trim());
      lines.push(
        '',
        submission.pdfKey
          ? 'The request is attached as a PDF.'
          : 'The PDF could not be rendered; the details are above.',
      );

      const message = {
        to,
        replyTo: visitorAddress(sceneData.formFields, submission.formData),
        subject: `New request for ${projectName}`,
        text: lines.join('\n'),
        messageId: requestMessageId(submission.id),
        headers: { 'X-Config-Share-Request': submission.id },
        attachments,
      };
      try {
        await sendMail(route, message, { allowPrivate: deps.config.smtpAllowPrivate });
      } catch (error) {
        // A project's server: its fixed message (see mail.ts); the platform's: the server's own words.
        if (error instanceof ProjectMailError)
          throw error.permanent ? Object.assign(new UnrecoverableError(error.message), { cause: error.cause }) : error;
        if (isPermanentSmtpError(error))
          throw new UnrecoverableError(`The SMTP server refused the message: ${(error as Error).message}`);
        throw error;
      }
      const notes = [note, submission.pdfKey ? undefined : 'Sent without the PDF, which could not be rendered.'].filter(
        Boolean,
      );
      return notes.length > 0 ? { note: notes.join(' ') } : {};
    },
  },
  // Longer than nodemailer's own socket timeouts (60 s), so they report first.
  { timeoutMs: 180_000 },
);
