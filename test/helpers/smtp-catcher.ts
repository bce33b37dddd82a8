import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/**
 * A local SMTP server keeping what it accepts; a message counts only once its DATA got 250, as with a real server.
 * `holdNext()` withholds that answer for the next message, so a test can kill the sender mid-send.
 */
export interface CaughtPart {
  headers: Map<string, string>;
  contentType: string;
  filename: string | null;
  content: Buffer;
}

export interface CaughtMessage {
  from: string;
  to: string[];
  /** What the client authenticated as, if it did. */
  auth: { username: string; password: string } | null;
  raw: Buffer;
  headers: Map<string, string>;
  subject: string;
  messageId: string;
  text: string;
  /** The text/html part, decoded; empty without one. */
  html: string;
  attachments: CaughtPart[];
}

export interface HeldMessage {
  /** Resolves when the message's data has arrived and its answer is being withheld. */
  received: Promise<void>;
  /** Resolves when the client hung up before getting the answer (the message is dropped). */
  dropped: Promise<void>;
  /** Answers 250 (the message is delivered) or 451 (rejected, temporarily). */
  release(accept?: boolean): void;
}

export interface SmtpCatcher {
  port: number;
  /** For SMTP_URL. */
  url: string;
  messages: CaughtMessage[];
  /** Resolves once at least `count` messages were delivered. */
  waitForMessages(count: number, timeoutMs?: number): Promise<CaughtMessage[]>;
  holdNext(): HeldMessage;
  close(): Promise<void>;
}

// ---- a small MIME reader (mailparser does not install here) ----

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function param(header: string | undefined, name: string): string | null {
  if (!header) return null;
  const match = new RegExp(`;\\s*${name}\\*?=\\s*("([^"]*)"|[^;\\s]+)`, 'i').exec(header);
  if (!match) return null;
  return match[2] ?? match[1].replace(/^utf-8''/i, '');
}

function decodeEncodedWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([bq])\?([^?]*)\?=/gi, (_, _charset: string, encoding: string, text: string) =>
    encoding.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text
            .replace(/_/g, ' ')
            .replace(/=([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function decodeBody(body: string, encoding: string | undefined): Buffer {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable': {
      const bytes = body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      return Buffer.from(bytes, 'latin1');
    }
    default:
      return Buffer.from(body, 'utf8');
  }
}

function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { headers: parseHeaders(raw), body: '' };
  return { headers: parseHeaders(raw.slice(0, match.index)), body: raw.slice(match.index + match[0].length) };
}

/** The leaf parts of a MIME entity, depth first. */
function leafParts(raw: string): CaughtPart[] {
  const { headers, body } = splitEntity(raw);
  const contentType = headers.get('content-type') ?? 'text/plain';
  const boundary = param(contentType, 'boundary');
  if (/^multipart\//i.test(contentType) && boundary) {
    const pieces = body.split(
      new RegExp(`\\r?\\n?--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:--)?[ \\t]*\\r?\\n?`),
    );
    return pieces
      .slice(1)
      .filter((p) => p.trim() !== '')
      .flatMap(leafParts);
  }
  const filename = param(headers.get('content-disposition'), 'filename') ?? param(contentType, 'name');
  return [
    {
      headers,
      contentType: contentType.split(';')[0].trim().toLowerCase(),
      filename,
      content: decodeBody(body, headers.get('content-transfer-encoding')),
    },
  ];
}

export function parseMessage(
  raw: Buffer,
  envelope: { from: string; to: string[]; auth: CaughtMessage['auth'] },
): CaughtMessage {
  // latin1 keeps every byte as one character, so base64 and 8bit bodies survive the round trip.
  const text = raw.toString('latin1');
  const { headers } = splitEntity(text);
  const parts = leafParts(text);
  const textPart = parts.find((p) => p.contentType === 'text/plain' && !p.filename);
  const htmlPart = parts.find((p) => p.contentType === 'text/html' && !p.filename);
  // Line ends as written (SMTP carries CRLF).
  const utf8 = (part: CaughtPart | undefined) => part?.content.toString('utf8').replace(/\r\n/g, '\n') ?? '';
  return {
    ...envelope,
    raw,
    headers,
    subject: decodeEncodedWords(headers.get('subject') ?? ''),
    messageId: headers.get('message-id') ?? '',
    text: utf8(textPart),
    html: utf8(htmlPart),
    attachments: parts.filter((p) => p.filename !== null),
  };
}

/** Starts the catcher on a free port of 127.0.0.1. */
export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const messages: CaughtMessage[] = [];
  const waiters: Array<() => void> = [];
  let nextHold: { onReceived: () => void; onDropped: () => void; answer: Promise<boolean> } | null = null;
  /** Sessions whose answer is withheld, and what to do if they hang up. */
  const heldSessions = new Map<string, () => void>();
  const auths = new Map<string, { username: string; password: string }>();
  const notify = () => waiters.splice(0).forEach((w) => w());

  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Tests end with close(): do not wait long for a client that never says QUIT.
    closeTimeout: 500,
    onAuth(auth, session, callback) {
      auths.set(session.id, { username: auth.username ?? '', password: auth.password ?? '' });
      callback(null, { user: auth.username ?? 'anonymous' });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const deliver = () => {
          messages.push(
            parseMessage(raw, {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              auth: auths.get(session.id) ?? null,
            }),
          );
          callback(null, 'queued');
          notify();
        };
        const hold = nextHold;
        if (!hold) return deliver();
        nextHold = null;
        heldSessions.set(session.id, hold.onDropped);
        hold.onReceived();
        void hold.answer.then((accept) => {
          if (!heldSessions.delete(session.id)) return;
          if (accept) deliver();
          else callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
        });
      });
    },
    onClose(session) {
      const dropped = heldSessions.get(session.id);
      if (dropped) {
        heldSessions.delete(session.id);
        dropped();
      }
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitForMessages(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} e-mails, got ${messages.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return messages;
    },
    holdNext() {
      let onReceived!: () => void;
      let onDropped!: () => void;
      let answer!: (accept: boolean) => void;
      const received = new Promise<void>((r) => (onReceived = r));
      const dropped = new Promise<void>((r) => (onDropped = r));
      nextHold = { onReceived, onDropped, answer: new Promise<boolean>((r) => (answer = r)) };
      return { received, dropped, release: (accept = true) => answer(accept) };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
