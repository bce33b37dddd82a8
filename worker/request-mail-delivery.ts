import { UnrecoverableError } from 'bullmq';
import type { SendMailOptions } from 'nodemailer';
import { isEmailAddress } from '#core/wire/form-field-rules.js';
import type { WorkerDeps } from './jobs/define-job.js';

/**
 * What the owner's e-mail and the visitor's copy share: the owner's addresses (the first's recipients,
 * the second's Reply-To) and the project's SMTP route with its failures sorted into retry or give up.
 */

/** Recipients from emailAdminAddress: one address, or several separated by commas or semicolons. */
function adminRecipients(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(isEmailAddress);
}

/**
 * The project's emailAdminAddress, else the workspace owners' addresses (`fallback` says why), so a
 * request reaches somebody; `to` is empty when nobody has an address.
 */
export async function ownerAddresses(
  deps: WorkerDeps,
  workspaceId: string,
  settings: Record<string, unknown>,
): Promise<{ to: string[]; fallback?: string }> {
  const to = adminRecipients(settings.emailAdminAddress);
  if (to.length > 0) return { to };
  const configured = typeof settings.emailAdminAddress === 'string' && settings.emailAdminAddress.trim() !== '';
  const fallback = configured
    ? "the project's emailAdminAddress is not a valid e-mail address"
    : 'the project has no emailAdminAddress';
  return { to: adminRecipients((await deps.accounts.workspaceOwnerEmails(workspaceId)).join(',')), fallback };
}

/**
 * Sends over the project's SMTP, else SMTP_URL. No SMTP at all, an SMTP 5xx or a refused project host:
 * UnrecoverableError (retrying will not help); anything else throws as is, for BullMQ to retry.
 */
export async function sendRequestMail(
  deps: WorkerDeps,
  settings: Record<string, unknown>,
  message: SendMailOptions,
): Promise<void> {
  // nodemailer loads with the first e-mail, not with the worker (cached by Node from then on).
  const { ProjectMailError, isPermanentSmtpError, mailRouteFor, sendMail } = await import('./mail.js');
  const route = mailRouteFor(settings, deps.config);
  if (!route)
    throw new UnrecoverableError(
      "No SMTP server is configured: set the project's smtpHost settings or the platform's SMTP_URL.",
    );
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
}

/** The request's PDF as an attachment, when the PDF step stored one. */
export async function pdfAttachment(deps: WorkerDeps, submission: { id: string; pdfKey: string | null }) {
  if (!submission.pdfKey) return [];
  return [
    {
      filename: `request-${submission.id}.pdf`,
      content: await deps.storage.read(submission.pdfKey),
      contentType: 'application/pdf',
    },
  ];
}
