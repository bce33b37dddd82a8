import { createDb } from '#core/platform/db/client.js';
import { issueAccessToken } from '#core/platform/tokens.js';
import { loadServerConfig } from '../../server/config.js';
import { startBuiltProcess, startTsProcess, type ChildProcessHandle } from './child-process.js';
import { ensureTestPerson } from './people.js';
import { TEST_SECRETS, freePort } from './test-env.js';

/**
 * The server, a worker and the BFF as processes of their own (the sources through tsx, or the build as `npm start`
 * runs it), each on a fixed port so that one can be stopped and started again where the others expect it.
 */
export interface StackPart {
  name: 'server' | 'worker' | 'bff';
  /** Its /health. */
  healthUrl: string;
  /** The process running now, if any. */
  current(): ChildProcessHandle | undefined;
  /** Spawns it and waits until its /health answers 200. */
  start(): Promise<void>;
  /** SIGKILL, as a crash: nothing is closed gracefully. */
  kill(): Promise<void>;
}

export interface ProcessStack {
  api: string;
  bffUrl: string;
  server: StackPart;
  worker: StackPart;
  bff: StackPart;
  /** Every process's output so far, for a failed test's message. */
  output(): string;
  close(): Promise<void>;
}

/**
 * Settings for runs that fault a dependency: limits out of the way (one client address sends everything), and the
 * worker quick to take back a job whose lock or Redis was lost, so recovery shows within a test's time.
 */
export const FAULT_RUN_SETTINGS: Record<string, string> = {
  LOG_LEVEL: 'warn',
  RATE_LIMIT_SHARE_READ: '100000000/5m',
  RATE_LIMIT_SUBMIT: '100000000/5m',
  WORKER_LOCK_DURATION_MS: '3000',
  OUTBOX_RELAY_INTERVAL_MS: '200',
  OUTBOX_RESEND_AFTER_MS: '3000',
};

export interface ProcessStackOptions {
  /** The settings all three share (DATABASE_URL, REDIS_URL, QUEUE_PREFIX, STORAGE_DIR, SMTP_URL, ...). */
  env: Record<string, string>;
  /** `tsx` (default): the sources; `build`: dist/ (`npm run build` first). */
  runner?: 'tsx' | 'build';
  /** How long a start may take until /health answers 200 (default 90 s: tsx compiles on shared cores). */
  startTimeoutMs?: number;
}

async function answersOk(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

export async function startProcessStack(options: ProcessStackOptions): Promise<ProcessStack> {
  const launch = options.runner === 'build' ? startBuiltProcess : startTsProcess;
  const startTimeoutMs = options.startTimeoutMs ?? 90_000;
  const [port, workerPort, bffPort] = [await freePort(), await freePort(), await freePort()];
  const api = `http://127.0.0.1:${port}`;
  const bffUrl = `http://127.0.0.1:${bffPort}`;
  const logs: string[] = [];

  function part(name: StackPart['name'], script: string, healthUrl: string, env: Record<string, string>): StackPart {
    let handle: ChildProcessHandle | undefined;
    return {
      name,
      healthUrl,
      current: () => handle,
      async start() {
        if (handle) logs.push(`--- ${name} (earlier run) ---\n${handle.output()}`);
        const started = launch(script, { ...options.env, ...env });
        handle = started;
        const deadline = Date.now() + startTimeoutMs;
        while (!(await answersOk(healthUrl))) {
          if (started.child.exitCode !== null || Date.now() > deadline)
            throw new Error(`${name}: ${healthUrl} did not answer 200:\n${started.output()}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      },
      async kill() {
        await handle?.stop();
      },
    };
  }

  const server = part('server', 'server/main.ts', `${api}/health`, {
    PORT: String(port),
    PUBLIC_BASE_URL: api,
  });
  const worker = part('worker', 'worker/main.ts', `http://127.0.0.1:${workerPort}/health`, {
    WORKER_HEALTH_PORT: String(workerPort),
  });
  const bff = part('bff', 'bff/main.ts', `${bffUrl}/health`, { BFF_PORT: String(bffPort), BFF_UPSTREAM_URL: api });
  const parts = [server, worker, bff];
  const stack: ProcessStack = {
    api,
    bffUrl,
    server,
    worker,
    bff,
    output: () =>
      [...logs, ...parts.map((p) => `--- ${p.name} ---\n${p.current()?.output() ?? '(not running)'}`)].join('\n'),
    async close() {
      await Promise.all(parts.map((p) => p.kill()));
    },
  };
  try {
    // The server migrates the database; the others start once it is up.
    await server.start();
    await Promise.all([worker.start(), bff.start()]);
  } catch (error) {
    await stack.close();
    throw error;
  }
  return stack;
}

/** A shared project whose requests are e-mailed to `emailAdminAddress`, created through the server's API. */
export interface StackShare {
  projectId: string;
  token: string;
  /** The public read, relative to the server or the BFF. */
  readPath: string;
  submitPath: string;
  /** What the server wants on public calls (the BFF adds it itself). */
  publicHeaders: Record<string, string>;
  /** A valid submit body. */
  submitBody: string;
}

export async function createStackShare(stack: ProcessStack, env: Record<string, string>): Promise<StackShare> {
  const config = loadServerConfig(env);
  const db = createDb(config.databaseUrl, 1);
  const person = await ensureTestPerson(db, 'stack|owner', 'owner@stack.test', 1000).finally(() => db.$client.end());
  const owner = {
    authorization: `Bearer ${await issueAccessToken(config.auth, person.subject, person.email)}`,
    'content-type': 'application/json',
  };
  const created = await fetch(`${stack.api}/projects`, {
    method: 'POST',
    headers: owner,
    body: JSON.stringify({
      name: 'Soak chair',
      type: 'configurator',
      data: {
        models: [],
        sceneData: {
          formFields: [{ id: 'email', label: 'E-mail', type: 'email', required: true }],
          optionBlocks: [],
          projectSettings: { emailAdminAddress: 'owner@shop.example' },
        },
      },
    }),
  });
  if (created.status !== 201) throw new Error(`creating the project: ${created.status} ${await created.text()}`);
  const { project } = (await created.json()) as { project: { id: string } };
  const shared = await fetch(`${stack.api}/projects/${project.id}/share`, {
    method: 'PUT',
    headers: owner,
    body: JSON.stringify({ isEnabled: true, requirePassword: false, domainRestrictions: [] }),
  });
  if (shared.status !== 200) throw new Error(`sharing the project: ${shared.status} ${await shared.text()}`);
  const { settings } = (await shared.json()) as { settings: { shareToken: string } };
  const readPath = `/share/${project.id}/${settings.shareToken}`;
  return {
    projectId: project.id,
    token: settings.shareToken,
    readPath,
    submitPath: `${readPath}/submit`,
    publicHeaders: { apikey: TEST_SECRETS.PUBLIC_ANON_KEY, authorization: `Bearer ${TEST_SECRETS.PUBLIC_ANON_KEY}` },
    submitBody: JSON.stringify({
      formData: { email: 'shopper@example.com' },
      selectedOptions: {},
      configurationSummary: 'A chair',
      screenshots: [],
    }),
  };
}
