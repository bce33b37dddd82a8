import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { verify as verifyGithubStyle } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';

/**
 * A real webhook endpoint checking each delivery with libraries we did not write: `@octokit/webhooks-methods` for
 * `X-Service-Signature` (GitHub's scheme), `standardwebhooks` for the `webhook-*` headers (5-minute replay window).
 */
export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
  json: { id: string; event: string; createdAt: string; projectId: string; data: Record<string, unknown> };
  /** Both signature styles verified with the receiver's secret. */
  githubValid: boolean;
  standardValid: boolean;
  receivedAt: number;
  path: string;
}

/** How to answer one request: a status (with headers and body), or `hang` (never answer). */
export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedDelivery[];
  /** The secret the receiver verifies with. */
  secret: string;
  /** Replies for the next requests, in order; afterwards `fallback`. */
  replyNext(...replies: Reply[]): void;
  fallback: Reply;
  /** Resolves once `count` deliveries (matching `filter`) arrived. */
  waitFor(count: number, filter?: (d: ReceivedDelivery) => boolean, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  secret: string,
  options: { fallback?: Reply } = {},
): Promise<WebhookReceiver> {
  const queue: Reply[] = [];
  const received: ReceivedDelivery[] = [];
  const sockets = new Set<Socket>();
  // As the receiver guide says: a whsec_ secret as is, any other secret as raw bytes.
  const standard = secret.startsWith('whsec_') ? new Webhook(secret) : new Webhook(secret, { format: 'raw' });

  const answer = (res: ServerResponse, reply: Reply) => {
    if (reply === 'hang') return;
    res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
    res.end(reply.body ?? 'ok');
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = String(req.headers['x-service-signature'] ?? '');
      const githubValid = await verifyGithubStyle(secret, body, signature).catch(() => false);
      let standardValid: boolean;
      try {
        standard.verify(body, req.headers as Record<string, string>);
        standardValid = true;
      } catch {
        standardValid = false;
      }
      let json: ReceivedDelivery['json'];
      try {
        json = JSON.parse(body);
      } catch {
        json = {} as ReceivedDelivery['json'];
      }
      received.push({
        headers: req.headers,
        body,
        json,
        githubValid,
        standardValid,
        receivedAt: Date.now(),
        path: req.url ?? '/',
      });
      answer(res, queue.shift() ?? receiver.fallback);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    secret,
    fallback: options.fallback ?? { status: 200 },
    replyNext: (...replies) => void queue.push(...replies),
    async waitFor(count, filter = () => true, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter(filter);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${count} deliveries (got ${matching.length})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return receiver;
}
