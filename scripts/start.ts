import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '#core/platform/config/settings.js';
import { loadAllSettings, type AllSettings } from '#core/platform/config/pieces.js';
import { openCliServices } from '../server/cli/cli-services.js';
import { issueDevToken } from '../server/cli/dev-token.js';
import { RUNTIME_ENV_FILE } from '../server/cli/local-env.js';
import {
  DEMO_LOCKED_OWNER_EMAIL,
  DEMO_OWNER_EMAIL,
  ensureDemoProject,
  ensureDemoShares,
  type DemoProject,
} from './start/demo-data.js';
import { startEmbeddedPostgres } from './start/embedded-postgres.js';
import { watchLauncher } from './start/launcher-watch.js';
import { ensureRedis } from './start/local-redis.js';
import { QUEUE_DASHBOARD_PATH } from '../server/plugins/queue-dashboard.js';
import { DATA_DIR, ROOT } from './start/paths.js';
import { isPortFree, pickPort, waitFor } from './start/ports.js';
import { loadOrCreateSecrets } from './start/secrets.js';
import { startSmtpCatcher } from './start/smtp-catcher.js';
import { chooseLibraries } from './start/libraries.js';
import { StartError } from './start/start-error.js';
import { Supervisor } from './start/supervisor.js';

/**
 * `npm start`: everything on one machine, providing what the environment lacks (architecture.md,
 * "Defaults and scale"). Ctrl-C stops the children first, then what this script started. `npm start` runs
 * `npm run build` first, so the processes, the element and the console it serves are current.
 */

/** What the demo page's state switcher reads (generated, not committed). */
const DEMO_SHARES_FILE = path.join(ROOT, 'demo', 'shares.json');
/** The children's log lines (requests included), so that the terminal keeps the summary in view. */
const LOG_FILE = path.join(DATA_DIR, 'logs', 'npm-start.log');

const say = (line: string) => process.stdout.write(`start  | ${line}\n`);
const complain = (line: string) => process.stderr.write(`start  | ${line}\n`);

/** The launcher decides what the user left unset; everything else reads settings through loadConfig. */
const userEnv: NodeJS.ProcessEnv = process.env;
const isSet = (name: string) => (userEnv[name] ?? '') !== '';
const GENERATED_SECRETS = [
  'AUTH_JWT_SECRET',
  'PUBLIC_ANON_KEY',
  'FILE_SIGNING_SECRET',
  'TOKEN_ENCRYPTION_KEY',
  'CART_SIGNING_KEY',
] as const;

const cleanups: Array<{ what: string; run: () => Promise<void> }> = [];
let supervisor: Supervisor | null = null;
let shuttingDown = false;

async function shutdown(reason: string, exitCode: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<never> {
  if (shuttingDown) return new Promise<never>(() => {});
  shuttingDown = true;
  (exitCode === 0 ? say : complain)(reason);
  await supervisor?.stopAll(signal);
  for (const cleanup of cleanups.reverse()) {
    await cleanup
      .run()
      .catch((error: unknown) => complain(`stopping ${cleanup.what} failed: ${(error as Error).message}`));
  }
  if (exitCode === 0) say('stopped');
  process.exit(exitCode);
}

let firstSignalAt = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (firstSignalAt === 0) {
      firstSignalAt = Date.now();
      void shutdown(`${signal}: stopping everything`, 0, signal);
      return;
    }
    // A Ctrl-C reaches this process twice (from the terminal, and relayed by npm): only a
    // signal that comes clearly later is someone insisting.
    if (Date.now() - firstSignalAt < 2000) return;
    complain(`${signal} again: exiting without waiting`);
    process.exit(1);
  });
}

watchLauncher(() => void shutdown('the process that launched npm start is gone: stopping everything', 0));

/** Host for URLs: a wildcard listen address is reached through loopback. */
const reachable = (host: string) => (host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host);

async function assertPortFree(name: string, port: number, host: string) {
  if (!(await isPortFree(port, host))) {
    throw new StartError(
      `${name} ${port} on ${host} is already in use (another \`npm start\`?). ` +
        `Stop what listens there, or choose another port: ${name}=${port + 1} npm start`,
    );
  }
}

async function httpOk(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await res.body?.cancel();
  return res.status === 200;
}

async function waitForHealth(what: string, url: string) {
  await waitFor(
    what,
    async () => {
      if (shuttingDown) throw new StartError('stopped while starting');
      return httpOk(url);
    },
    120_000,
    300,
  );
}

async function writeRuntimeEnv(values: Record<string, string>) {
  const body = Object.entries(values)
    .map(([key, value]) => `${key}="${value}"`)
    .join('\n');
  await writeFile(
    RUNTIME_ENV_FILE,
    `# Written by npm start for the CLIs (npm run token/admin). Regenerated on every start.\n${body}\n`,
    { mode: 0o600 },
  );
}

function printSummary(
  config: AllSettings,
  urls: { api: string; bff: string },
  demo: DemoProject | null,
  ownerToken: string | null,
  facts: string[],
) {
  const { healthHost, healthPort } = config.worker;
  const workerHealth =
    healthPort === 0
      ? 'a free port ("worker health on" in the log)'
      : `http://${reachable(healthHost)}:${healthPort}/health`;
  const rows: Array<[string, string]> = [
    ['API', urls.api],
    ['API docs', `${urls.api}/docs   (OpenAPI: ${urls.api}/openapi.json)`],
    ['Health', `${urls.api}/health   ${urls.bff}/health   worker: ${workerHealth}   (/ready: storage too)`],
    ['BFF', urls.bff],
  ];
  if (demo?.share?.isEnabled) {
    rows.push(['Demo page', `${urls.bff}/demo/   (the element in every state)`]);
    rows.push(['Demo share', `${urls.bff}/share/${demo.projectId}/${demo.share.shareToken}`]);
    const key = config.publicAnonKey ?? '';
    rows.push([
      'Public read',
      `curl -H "apikey: ${key}" -H "Authorization: Bearer ${key}" ` +
        `${urls.api}/share/${demo.projectId}/${demo.share.shareToken}`,
    ]);
  } else if (demo) {
    rows.push(['Demo project', `${demo.projectId} (sharing is off)`]);
  }
  rows.push(['Public key', config.publicAnonKey ?? '(PUBLIC_ANON_KEY is not set)']);
  if (ownerToken)
    rows.push(
      ['Owner token', `${ownerToken}`],
      ['', `(${DEMO_OWNER_EMAIL}, valid 24 h; more: npm run -s token -- --email you@example.com)`],
    );
  // The token rides in the fragment: browsers never send it, so no server log sees it.
  rows.push([
    'Owner console',
    ownerToken ? `${urls.bff}/demo/owner/#token=${ownerToken}` : `${urls.bff}/demo/owner/   (paste a token)`,
  ]);
  if (config.operatorSecret)
    rows.push([
      'Queue view',
      `${urls.api}${QUEUE_DASHBOARD_PATH}   (user: operator, password: the OPERATOR_SECRET ${config.operatorSecret})`,
    ]);
  rows.push([
    'Logs',
    `${path.relative(process.cwd(), LOG_FILE)}   (requests and the rest at level ${config.logLevel}; ` +
      `set LOG_LEVEL to change it; the start before: npm-start.previous.log)`,
  ]);
  for (const fact of facts) {
    const [label, ...rest] = fact.split('\t');
    rows.push([label, rest.join('\t')]);
  }
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = [
    '',
    'config-share is running.',
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    ...(demo?.notes ?? []).map((n) => `  note: ${n}`),
    '',
    'Press Ctrl-C to stop.',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main() {
  await mkdir(DATA_DIR, { recursive: true });
  const secrets = await loadOrCreateSecrets();
  const settings: Record<string, string> = {};
  for (const name of GENERATED_SECRETS) if (!isSet(name)) settings[name] = secrets[name];
  if (!isSet('STORAGE_DIR')) settings.STORAGE_DIR = path.join(DATA_DIR, 'storage');
  const facts: string[] = [];

  // Validate the settings and claim the ports before starting anything.
  let config = loadAllSettings({ ...userEnv, ...settings });
  await assertPortFree('PORT', config.port, config.host);
  await assertPortFree('BFF_PORT', config.bffPort, config.bffHost);
  // Only probes use the worker's health port: 3001 when free, else another, shown in the summary.
  if (!isSet('WORKER_HEALTH_PORT'))
    settings.WORKER_HEALTH_PORT = String(await pickPort(3001, config.worker.healthHost));
  else if (config.worker.healthPort !== 0)
    await assertPortFree('WORKER_HEALTH_PORT', config.worker.healthPort, config.worker.healthHost);

  if (!isSet('DATABASE_URL')) {
    const postgres = await startEmbeddedPostgres({ password: secrets.EMBEDDED_POSTGRES_PASSWORD, log: say });
    cleanups.push({ what: 'embedded Postgres', run: postgres.stop });
    settings.DATABASE_URL = postgres.databaseUrl;
    facts.push(`Postgres\tembedded, 127.0.0.1:${postgres.port}, data in ${postgres.dataDir}`);
  } else {
    facts.push(`Postgres\tDATABASE_URL (${new URL(config.databaseUrl).host})`);
  }

  // Without REDIS_URL, a Redis started here may move off 6379 when something else holds it.
  const redis = await ensureRedis(config.redisUrl, say, !isSet('REDIS_URL'));
  if (redis.url !== config.redisUrl) settings.REDIS_URL = redis.url;
  cleanups.push({ what: 'Redis', run: redis.stop });
  void redis.exited.then(() => shutdown('the Redis started here exited: stopping everything', 1));
  facts.push(`Redis\t${new URL(redis.url).host}${redis.started ? ' (started here, in memory only)' : ''}`);

  if (!isSet('SMTP_URL')) {
    const smtp = await startSmtpCatcher(path.join(DATA_DIR, 'mail'));
    cleanups.push({ what: 'the SMTP catcher', run: smtp.close });
    settings.SMTP_URL = smtp.url;
    facts.push(`Mail\t${smtp.url} catches every message into ${path.relative(ROOT, smtp.dir)}/*.eml`);
  }
  const libraries = await chooseLibraries(isSet, say);
  if (libraries.close) cleanups.push({ what: 'the fixture libraries', run: libraries.close });
  Object.assign(settings, libraries.settings);
  facts.push(`Libraries\t${libraries.fact}`);
  if (!isSet('BFF_UPSTREAM_URL')) settings.BFF_UPSTREAM_URL = `http://${reachable(config.host)}:${config.port}`;
  // The owner console is served by the BFF, another origin than the API's: let it call the API.
  const bffOrigin = `http://${reachable(config.bffHost)}:${config.bffPort}`;
  if (!isSet('CONSOLE_ORIGINS')) settings.CONSOLE_ORIGINS = bffOrigin;
  // The library_b sign-in comes back to the console's library panel.
  if (!isSet('DASHBOARD_URL')) settings.DASHBOARD_URL = `${bffOrigin}/demo/owner/`;
  // The operator's queue view, behind a generated secret (kept in .data/secrets.json).
  if (!isSet('OPERATOR_SECRET')) settings.OPERATOR_SECRET = secrets.OPERATOR_SECRET;
  // A webhook receiver on this machine (http://localhost:...) is what one tries first; never in start:* or images.
  if (!isSet('WEBHOOK_ALLOW_INSECURE')) settings.WEBHOOK_ALLOW_INSECURE = '1';
  // The BFF runs on this machine and speaks for the visitors: the server must believe its
  // X-Forwarded-For, or every visitor shares one rate limit and one password lockout.
  if (!isSet('TRUST_PROXY')) settings.TRUST_PROXY = '127.0.0.1,::1';

  const env = { ...userEnv, ...settings };
  config = loadAllSettings(env);
  facts.push(`Storage\t${config.storage.driver === 'local' ? config.storage.dir : 's3'}`);
  await writeRuntimeEnv({ ...settings, DATABASE_URL: config.databaseUrl, REDIS_URL: config.redisUrl });

  // Applies pending migrations before any process starts.
  const services = await openCliServices(config);
  try {
    await mkdir(path.dirname(LOG_FILE), { recursive: true });
    await rename(LOG_FILE, LOG_FILE.replace(/\.log$/, '.previous.log')).catch(() => {});
    supervisor = new Supervisor(env, LOG_FILE, (name, code, signal) => {
      void shutdown(
        `${name} exited unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}): stopping everything`,
        1,
      );
    });
    supervisor.start('server', 'server/main.js');
    supervisor.start('worker', 'worker/main.js');
    supervisor.start('bff', 'bff/main.js');

    const urls = {
      api: `http://${reachable(config.host)}:${config.port}`,
      bff: `http://${reachable(config.bffHost)}:${config.bffPort}`,
    };
    await waitForHealth('the server', `${urls.api}/health`);
    await waitForHealth('the BFF', `${urls.bff}/health`);

    let ownerToken: string | null = null;
    let demo: DemoProject | null = null;
    if (config.auth.jwtSecret) {
      ownerToken = (await issueDevToken(services.workspaces, config, { email: DEMO_OWNER_EMAIL })).token;
      demo = await ensureDemoProject(urls.api, ownerToken);
      const lockedOwner = await issueDevToken(services.workspaces, config, { email: DEMO_LOCKED_OWNER_EMAIL });
      const { shares, notes } = await ensureDemoShares(urls.api, ownerToken, lockedOwner.token, demo);
      await services.workspaces.change(lockedOwner.workspaceId, { billingStatus: 'locked' });
      await writeFile(DEMO_SHARES_FILE, `${JSON.stringify({ shares }, null, 2)}\n`);
      demo.notes.push(...notes);
    } else {
      complain('AUTH_JWKS_URL without AUTH_JWT_SECRET: no local owner token and no demo data');
    }
    printSummary(config, urls, demo, ownerToken, facts);
  } finally {
    await services.close();
  }
}

main().catch((error: unknown) => {
  if (shuttingDown) return;
  const message =
    error instanceof StartError || error instanceof ConfigError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  void shutdown(`cannot start: ${message}`, 1);
});
