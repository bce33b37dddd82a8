import { isIP } from 'node:net';
import nodemailer, { type SendMailOptions, type SMTPSentMessageInfo, type SMTPTransportOptions } from 'nodemailer';
import type { MailSettings } from '#core/platform/config/pieces.js';
import { SsrfError, resolvePublicAddress, type ResolvePublicAddressOptions } from '#core/platform/ssrf-guard.js';

/**
 * Any editor picks a project's SMTP host, so it goes through the SSRF guard with fixed error messages (raw
 * socket errors would make the step a port scanner); the operator's SMTP_URL is trusted. Null: none set.
 */
export interface MailRoute {
  source: 'project' | 'platform';
  transport: SMTPTransportOptions;
  from: string;
}

/** The only ports a project's own SMTP server may use: SMTP, SMTPS, submission, and the common alternative. */
const PROJECT_SMTP_PORTS: readonly number[] = [25, 465, 587, 2525];

/** A hung SMTP server must fail the attempt (and retry later), not hold the job forever. */
const TIMEOUTS: SMTPTransportOptions = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const looksLikeAddress = (value: string | undefined) => Boolean(value && /^[^\s@]+@[^\s@]+$/.test(value));

function portOf(value: unknown): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^[0-9]+$/.test(value.trim())
        ? Number(value)
        : NaN;
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : undefined;
}

function flagOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1' || value === 1) return true;
  if (value === 'false' || value === '0' || value === 0) return false;
  return undefined;
}

export function mailRouteFor(
  projectSettings: Record<string, unknown>,
  config: Pick<MailSettings, 'smtpUrl' | 'mailFrom'>,
): MailRoute | null {
  const host = text(projectSettings.smtpHost);
  if (host) {
    const port = portOf(projectSettings.smtpPort) ?? 587;
    const user = text(projectSettings.smtpUser);
    const pass = typeof projectSettings.smtpPassword === 'string' ? projectSettings.smtpPassword : undefined;
    const secure = flagOf(projectSettings.smtpSecure) ?? port === 465;
    const from = text(projectSettings.smtpFrom) ?? (looksLikeAddress(user) ? user! : config.mailFrom);
    return {
      source: 'project',
      transport: { ...TIMEOUTS, host, port, secure, auth: user ? { user, pass } : undefined },
      from,
    };
  }
  // Settings in the URL win; the timeouts fill in what it leaves out.
  if (config.smtpUrl)
    return { source: 'platform', transport: { ...TIMEOUTS, url: config.smtpUrl }, from: config.mailFrom };
  return null;
}

/**
 * A failed project SMTP send with a message safe to show the owner; `permanent`: retrying will not
 * help. The original error stays in `cause`, for logs only.
 */
export class ProjectMailError extends Error {
  override name = 'ProjectMailError';
  constructor(
    message: string,
    readonly permanent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const PROJECT_MAIL_MESSAGES = {
  port:
    "The project's SMTP port is not allowed: " +
    `use ${PROJECT_SMTP_PORTS.slice(0, -1).join(', ')} or ${PROJECT_SMTP_PORTS.at(-1)}.`,
  blocked: "The project's SMTP host is not allowed: it resolves to a private address.",
  dns: "The project's SMTP host could not be resolved.",
  refused: "The project's SMTP server refused the connection.",
  timeout: "The project's SMTP server did not answer in time.",
  tls: "The TLS connection to the project's SMTP server failed.",
  auth: "The project's SMTP server refused the login (authentication failed).",
  rejected: "The project's SMTP server rejected the message",
  failed: "The connection to the project's SMTP server failed.",
} as const;

interface SmtpFailure {
  code?: unknown;
  originalCode?: unknown;
  responseCode?: unknown;
  library?: unknown;
}

const TLS_CODE = /^(ERR_SSL|ERR_TLS|CERT_|DEPTH_ZERO|UNABLE_TO_|SELF_SIGNED|HOSTNAME_MISMATCH)/;

/** Maps what nodemailer reports to a fixed message: never the server's or the socket's own text. */
export function projectMailError(error: unknown): ProjectMailError {
  const e = (error ?? {}) as SmtpFailure;
  const code = typeof e.code === 'string' ? e.code : '';
  const original = typeof e.originalCode === 'string' ? e.originalCode : '';
  const response = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const permanent = response !== undefined && response >= 500 && response < 600;
  const make = (message: string, isPermanent = false) => new ProjectMailError(message, isPermanent, { cause: error });
  if (code === 'EAUTH') return make(PROJECT_MAIL_MESSAGES.auth, permanent);
  if (response !== undefined) return make(`${PROJECT_MAIL_MESSAGES.rejected} (${response}).`, permanent);
  if (code === 'EENVELOPE' || code === 'EMESSAGE') return make(`${PROJECT_MAIL_MESSAGES.rejected}.`);
  if (code === 'ETIMEDOUT' || original === 'ETIMEDOUT') return make(PROJECT_MAIL_MESSAGES.timeout);
  if (code === 'ETLS' || TLS_CODE.test(original) || e.library === 'SSL routines')
    return make(PROJECT_MAIL_MESSAGES.tls);
  if (original === 'ECONNREFUSED') return make(PROJECT_MAIL_MESSAGES.refused);
  return make(PROJECT_MAIL_MESSAGES.failed);
}

export interface MailGuardOptions {
  /** Let a project's SMTP host be a private address on any port (SMTP_ALLOW_PRIVATE; default false). */
  allowPrivate?: boolean;
  /** The resolver for project hosts (tests). */
  lookup?: ResolvePublicAddressOptions['lookup'];
}

/**
 * A project's host is replaced by the checked address, keeping the host name as TLS server name so
 * certificates are checked against it. Throws ProjectMailError when the host is refused.
 */
export async function connectableTransport(
  route: MailRoute,
  options: MailGuardOptions = {},
): Promise<SMTPTransportOptions> {
  if (route.source === 'platform') return route.transport;
  const host = String(route.transport.host);
  const port = Number(route.transport.port);
  if (!options.allowPrivate && !PROJECT_SMTP_PORTS.includes(port))
    throw new ProjectMailError(PROJECT_MAIL_MESSAGES.port, true);
  let address: string;
  try {
    ({ address } = await resolvePublicAddress(host, { allowPrivate: options.allowPrivate, lookup: options.lookup }));
  } catch (error) {
    if (error instanceof SsrfError && error.code === 'ssrf_blocked')
      throw new ProjectMailError(PROJECT_MAIL_MESSAGES.blocked, true, { cause: error });
    throw new ProjectMailError(PROJECT_MAIL_MESSAGES.dns, false, { cause: error });
  }
  // SNI must not carry an IP address (RFC 6066); a literal host has no name to check anyway.
  const servername = isIP(host.replace(/^\[(.*)\]$/, '$1')) ? undefined : host;
  return { ...route.transport, host: address, tls: { ...route.transport.tls, ...(servername ? { servername } : {}) } };
}

/**
 * Sends one message over the route and closes the connection. Over a project's own server,
 * every failure is a ProjectMailError with a fixed message.
 */
export async function sendMail(
  route: MailRoute,
  message: SendMailOptions,
  options: MailGuardOptions = {},
): Promise<SMTPSentMessageInfo> {
  const transport = await connectableTransport(route, options);
  const transporter = nodemailer.createTransport(transport);
  try {
    return await transporter.sendMail({ from: route.from, ...message });
  } catch (error) {
    throw route.source === 'project' ? projectMailError(error) : error;
  } finally {
    transporter.close();
  }
}

/** True for an SMTP answer that retrying will not change (5xx: no such mailbox, relaying denied, ...). */
export function isPermanentSmtpError(error: unknown): boolean {
  if (error instanceof ProjectMailError) return error.permanent;
  const code = (error as { responseCode?: unknown })?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}
