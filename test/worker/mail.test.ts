import { describe, expect, it } from 'vitest';
import {
  PROJECT_MAIL_MESSAGES,
  ProjectMailError,
  connectableTransport,
  isPermanentSmtpError,
  mailRouteFor,
  projectMailError,
} from '../../worker/mail.js';

/** Where mail goes, and the guard on a project's own SMTP server: checked address, allowed ports, fixed messages. */

const config = { smtpUrl: 'smtp://platform.example:2525', mailFrom: 'config-share <no-reply@example.com>' };
const lookup = (address: string) => async () => [{ address, family: address.includes(':') ? 6 : 4 }];

async function refusal(work: Promise<unknown>): Promise<ProjectMailError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProjectMailError);
  return error as ProjectMailError;
}

describe('connectableTransport', () => {
  it('connects to the address that was checked and keeps the host name for TLS', async () => {
    const route = mailRouteFor(
      { smtpHost: 'smtp.shop.example', smtpPort: '465', smtpUser: 'me@shop.example', smtpPassword: 'x' },
      config,
    )!;
    const transport = await connectableTransport(route, { lookup: lookup('93.184.216.34') });
    expect(transport).toMatchObject({
      host: '93.184.216.34',
      port: 465,
      secure: true,
      tls: { servername: 'smtp.shop.example' },
      auth: { user: 'me@shop.example', pass: 'x' },
    });
    // An IP literal has no name to present (SNI carries names only).
    const literal = await connectableTransport(mailRouteFor({ smtpHost: '93.184.216.34' }, config)!);
    expect(literal).toMatchObject({ host: '93.184.216.34', port: 587 });
    expect(literal.tls).toEqual({});
  });

  it('refuses private addresses and other ports for good, and an unresolvable name for now', async () => {
    const at = (settings: Record<string, unknown>) => mailRouteFor(settings, config)!;
    for (const host of ['127.0.0.1', '10.0.0.8', '169.254.169.254', '[::1]']) {
      expect(await refusal(connectableTransport(at({ smtpHost: host })))).toMatchObject({
        message: PROJECT_MAIL_MESSAGES.blocked,
        permanent: true,
      });
    }
    expect(
      await refusal(connectableTransport(at({ smtpHost: 'internal.shop.example' }), { lookup: lookup('192.168.0.4') })),
    ).toMatchObject({
      message: "The project's SMTP host is not allowed: it resolves to a private address.",
      permanent: true,
    });
    for (const port of [22, 80, 6379, 2526]) {
      expect(
        await refusal(
          connectableTransport(at({ smtpHost: 'smtp.shop.example', smtpPort: port }), {
            lookup: lookup('93.184.216.34'),
          }),
        ),
      ).toMatchObject({
        message: "The project's SMTP port is not allowed: use 25, 465, 587 or 2525.",
        permanent: true,
      });
    }
    const missing = async () => Promise.reject(new Error('getaddrinfo ENOTFOUND smtp.nope.example'));
    const dns = await refusal(connectableTransport(at({ smtpHost: 'smtp.nope.example' }), { lookup: missing }));
    expect(dns).toMatchObject({ message: PROJECT_MAIL_MESSAGES.dns, permanent: false });
  });

  it('with allowPrivate, reaches a private address on any port; the platform transport is never checked', async () => {
    const local = mailRouteFor({ smtpHost: 'localhost', smtpPort: 40025 }, config)!;
    expect(await connectableTransport(local, { allowPrivate: true })).toMatchObject({
      host: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
      port: 40025,
    });
    const platform = mailRouteFor({}, { ...config, smtpUrl: 'smtp://127.0.0.1:25' })!;
    expect(await connectableTransport(platform)).toBe(platform.transport);
  });
});

describe('projectMailError', () => {
  const failure = (fields: Record<string, unknown>, message = 'connect ECONNREFUSED 10.0.0.5:6379 (internal detail)') =>
    Object.assign(new Error(message), fields);

  it('maps what nodemailer reports to fixed messages that carry none of the socket or server text', () => {
    const cases: Array<[Record<string, unknown>, string, boolean]> = [
      [{ code: 'ESOCKET', originalCode: 'ECONNREFUSED' }, PROJECT_MAIL_MESSAGES.refused, false],
      [{ code: 'ETIMEDOUT' }, PROJECT_MAIL_MESSAGES.timeout, false],
      [{ code: 'ETLS' }, PROJECT_MAIL_MESSAGES.tls, false],
      [{ code: 'ESOCKET', originalCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, PROJECT_MAIL_MESSAGES.tls, false],
      [{ code: 'EAUTH', responseCode: 535 }, PROJECT_MAIL_MESSAGES.auth, true],
      [{ code: 'EAUTH', responseCode: 454 }, PROJECT_MAIL_MESSAGES.auth, false],
      [{ code: 'EENVELOPE', responseCode: 550 }, "The project's SMTP server rejected the message (550).", true],
      [{ code: 'EMESSAGE', responseCode: 451 }, "The project's SMTP server rejected the message (451).", false],
      [{ code: 'EPROTOCOL' }, PROJECT_MAIL_MESSAGES.failed, false],
      [{ code: 'ESOCKET', originalCode: 'EHOSTUNREACH' }, PROJECT_MAIL_MESSAGES.failed, false],
    ];
    for (const [fields, message, permanent] of cases) {
      const error = projectMailError(failure(fields));
      expect(error, JSON.stringify(fields)).toMatchObject({ message, permanent });
      expect(error.message).not.toMatch(/10\.0\.0\.5|6379|internal/);
      expect(isPermanentSmtpError(error)).toBe(permanent);
    }
  });
});
