import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { SMTPServer } from 'smtp-server';
import { pickPort } from './ports.js';

/**
 * A local SMTP server that accepts every message and writes it to `<dir>/<time>.eml`, standing
 * in for a real mail relay under `npm start`, so submissions' e-mails can be read on disk.
 */
export interface SmtpCatcher {
  url: string;
  dir: string;
  close(): Promise<void>;
}

export async function startSmtpCatcher(dir: string, preferredPort = 2525, host = '127.0.0.1'): Promise<SmtpCatcher> {
  await mkdir(dir, { recursive: true });
  let sequence = 0;
  const server = new SMTPServer({
    authOptional: true,
    // Plain text on localhost: nothing to encrypt, and no certificate to make up.
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 50 * 1024 * 1024,
    onData(stream, _session, callback) {
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(++sequence).padStart(4, '0')}.eml`;
      pipeline(stream, createWriteStream(path.join(dir, name))).then(
        () => callback(),
        (error: Error) => callback(error),
      );
    },
  });
  server.on('error', () => {});
  const port = await pickPort(preferredPort, host);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    url: `smtp://${host}:${port}`,
    dir,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
