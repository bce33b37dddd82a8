import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.js';
import { startTsProcess, type ChildProcessHandle } from '../helpers/child-process.js';
import { createSharedProject, submit, validBody, waitFor, workerEnv } from '../worker/submission-fixtures.js';

/**
 * Two workers on one host with identical settings (no WORKER_HEALTH_PORT): each takes a free health port and logs
 * it; when one is killed with SIGKILL mid-run, the other finishes every request, each e-mail sent once.
 */
const REQUESTS = 8;

interface MailGate {
  url: string;
  /** Connections held unanswered while the gate is shut. */
  held(): number;
  open(): void;
  close(): Promise<void>;
}

/**
 * A TCP gate in front of the SMTP catcher. While shut, a connection gets no greeting, so its sender waits and
 * nothing is delivered: a worker killed then has sent no e-mail another must not send again.
 */
async function startMailGate(targetPort: number): Promise<MailGate> {
  let isOpen = false;
  const waiting = new Set<net.Socket>();
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => sockets.delete(socket));
    return socket;
  };
  const pass = (client: net.Socket) => {
    const upstream = track(net.connect(targetPort, '127.0.0.1'));
    client.pipe(upstream).pipe(client);
    // A sender gone before its message's end: the catcher sees the connection drop and delivers nothing.
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (isOpen) return pass(client);
    waiting.add(client);
    client.once('close', () => waiting.delete(client));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    held: () => waiting.size,
    open() {
      isOpen = true;
      for (const client of waiting) pass(client);
      waiting.clear();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let server: TestServer;
let smtp: SmtpCatcher;
let gate: MailGate;
const workers: Array<{ handle: ChildProcessHandle; health: string }> = [];

/** Starts a worker with the shared settings; resolves with the health address it logged once ready. */
async function startWorker(env: Record<string, string>) {
  const handle = startTsProcess('worker/main.ts', env);
  await handle.waitForOutput(/"msg":"worker ready"/, 90_000);
  const logged = /worker health on (http:\/\/[^"\s]+)\/health/.exec(handle.output());
  if (!logged) throw new Error(`no health address in the worker's log:\n${handle.output()}`);
  return { handle, health: logged[1]! };
}

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  gate = await startMailGate(smtp.port);
  server = await startTestServer({ SMTP_URL: gate.url });
  // The settings two workers on one host share: WORKER_HEALTH_PORT left unset, as an operator would.
  const env = workerEnv(server.env.env, { SMTP_URL: gate.url, LOG_LEVEL: 'info' });
  delete env.WORKER_HEALTH_PORT;
  const started = await Promise.allSettled([startWorker(env), startWorker(env)]);
  for (const result of started) if (result.status === 'fulfilled') workers.push(result.value);
  for (const result of started) if (result.status === 'rejected') throw result.reason;
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.handle.stop()));
  await server?.close();
  await gate?.close();
  await smtp?.close();
});

describe('two workers on one host with the same settings', () => {
  it('each listens on a port of its own and answers /ready there', async () => {
    const ports = workers.map((w) => new URL(w.health).port);
    expect(new Set(ports).size).toBe(2);
    for (const worker of workers) {
      expect((await fetch(`${worker.health}/ready`)).status, worker.handle.output()).toBe(200);
      expect(worker.handle.output()).not.toContain('already in use');
    }
  });

  it('finishes every request on the other when one is killed with SIGKILL mid-run, one e-mail each', async () => {
    const share = await createSharedProject(server, await server.person('owner@two-workers.test'), {
      projectSettings: { emailAdminAddress: 'owner@shop.example' },
    });
    const answers = await Promise.all(Array.from({ length: REQUESTS }, () => submit(server.url, share, validBody())));
    expect(answers.map((r) => r.status)).toEqual(Array(REQUESTS).fill(200));
    const ids = await Promise.all(answers.map(async (r) => (await r.json()).requestId as string));

    // Mid-run: steps are done and e-mails are being sent, held at the gate, when the worker dies.
    const db = server.deps.db;
    const doneSteps = async () =>
      (
        await db.$client.query<{ n: number }>(
          `select count(*)::int as n from submission_steps where submission_id = any($1::uuid[]) and state = 'done'`,
          [ids],
        )
      ).rows[0]!.n;
    await waitFor(async () => (await doneSteps()) > 0 && gate.held() > 0, 'a step done and an e-mail being sent');
    const [victim, survivor] = workers as [(typeof workers)[0], (typeof workers)[0]];
    victim.handle.child.kill('SIGKILL');
    expect((await victim.handle.exited).signal).toBe('SIGKILL');
    gate.open();

    const counts = await waitFor(
      async () => {
        const { rows } = await db.$client.query<{ steps: number; open: number }>(
          `select count(*)::int as steps, count(*) filter (where state <> 'done')::int as open ` +
            `from submission_steps where submission_id = any($1::uuid[])`,
          [ids],
        );
        return rows[0]!.steps > 0 && rows[0]!.open === 0 ? rows[0] : null;
      },
      `every step of ${REQUESTS} requests done`,
      120_000,
    );
    expect(counts.open).toBe(0);
    // Each step is recorded done after its e-mail was accepted: every e-mail is in by now.
    const mailsFor = (id: string) => smtp.messages.filter((m) => m.headers.get('x-config-share-request') === id).length;
    expect(ids.map(mailsFor)).toEqual(Array(REQUESTS).fill(1));
    expect(smtp.messages).toHaveLength(REQUESTS);
    expect((await fetch(`${survivor.health}/ready`)).status).toBe(200);
  }, 180_000);
});
