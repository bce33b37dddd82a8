import nodemailer, { type SendMailOptions, type SMTPSentMessageInfo, type SMTPTransportOptions } from 'nodemailer';
import type { Config } from '../server/core/config.js';

/**
 * Which SMTP server sends a project's mail: the project's own (`smtpHost`, `smtpPort`,
 * `smtpUser`, `smtpPassword`, `smtpSecure`, optional `smtpFrom` in projectSettings) when it
 * names a host, else the platform's SMTP_URL. Null when neither is configured.
 */
export interface MailRoute {
  source: 'project' | 'platform';
  transport: SMTPTransportOptions;
  from: string;
}

/** A hung SMTP server must fail the attempt (and retry later), not hold the job forever. */
const TIMEOUTS: SMTPTransportOptions = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const looksLikeAddress = (value: string | undefined) => Boolean(value && /^[^\s@]+@[^\s@]+$/.test(value));

function portOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^[0-9]+$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : undefined;
}

function flagOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1' || value === 1) return true;
  if (value === 'false' || value === '0' || value === 0) return false;
  return undefined;
}

export function mailRouteFor(projectSettings: Record<string, unknown>, config: Pick<Config, 'smtpUrl' | 'mailFrom'>): MailRoute | null {
  const host = text(projectSettings.smtpHost);
  if (host) {
    const port = portOf(projectSettings.smtpPort) ?? 587;
    const user = text(projectSettings.smtpUser);
    const pass = typeof projectSettings.smtpPassword === 'string' ? projectSettings.smtpPassword : undefined;
    const secure = flagOf(projectSettings.smtpSecure) ?? port === 465;
    const from = text(projectSettings.smtpFrom) ?? (looksLikeAddress(user) ? user! : config.mailFrom);
    return { source: 'project', transport: { ...TIMEOUTS, host, port, secure, auth: user ? { user, pass } : undefined }, from };
  }
  // Settings in the URL win; the timeouts fill in what it leaves out.
  if (config.smtpUrl) return { source: 'platform', transport: { ...TIMEOUTS, url: config.smtpUrl }, from: config.mailFrom };
  return null;
}

/** Sends one message over the route and closes the connection. */
export async function sendMail(route: MailRoute, message: SendMailOptions): Promise<SMTPSentMessageInfo> {
  const transporter = nodemailer.createTransport(route.transport);
  try {
    return await transporter.sendMail({ from: route.from, ...message });
  } finally {
    transporter.close();
  }
}

/** True for an SMTP answer that retrying will not change (5xx: no such mailbox, relaying denied, ...). */
export function isPermanentSmtpError(error: unknown): boolean {
  const code = (error as { responseCode?: unknown })?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}
