import { expect } from 'vitest';
import { loadWorkerConfig, type WorkerConfig } from '../../worker/config.js';
import type { Db } from '#core/platform/db/client.js';
import { startWorker, type WorkerApp } from '../../worker/app.js';
import { createLogger } from '#core/platform/log.js';
import { makePng } from '../helpers/model-fixtures.js';
import { TEST_SECRETS } from '../helpers/test-env.js';
import type { TestPerson, TestServer } from '../helpers/test-server.js';

/** What the submit and worker tests share: shared projects, submit calls, images, waiting. */

export const PUBLIC_HEADERS = {
  apikey: TEST_SECRETS.PUBLIC_ANON_KEY,
  authorization: `Bearer ${TEST_SECRETS.PUBLIC_ANON_KEY}`,
};

export const png = (width = 8, height = 6) => Buffer.from(makePng(width, height));
/** A real 8x6 baseline JPEG (made with sharp). */
export const jpeg = () =>
  Buffer.from(
    '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBD' +
      'AQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAGAAgD' +
      'ASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAcEAABAwUAAAAAAAAAAAAAAAAAAQMFBxETQcL/xAAVAQEBAAAAAAAA' +
      'AAAAAAAAAAAEBf/EAB4RAQABAgcAAAAAAAAAAAAAAAEABBECAwUhYbHw/9oADAMBAAIRAxEAPwCN1gYRlIi283AAD0rfKL+3lPWF' +
      'azGvHRP/2Q==',
    'base64',
  );
/** A real 8x6 lossless WebP (VP8L, made with sharp), half of it transparent. */
export const webp = () =>
  Buffer.from('UklGRjYAAABXRUJQVlA4TCkAAAAvB0ABELkyRPQ/dhHR/zAoatsGan+DMv4YbwbRIA/PBExAzgBRgAD1HwA=', 'base64');
export const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

export const FORM_FIELDS = [
  { id: 'name', label: 'Full name', type: 'text', required: true },
  { id: 'email', label: 'E-mail address', type: 'email', required: true },
  { id: 'notes', label: 'Notes', type: 'textarea' },
];
export const OPTION_BLOCKS = [
  {
    id: 'wood',
    name: 'Wood finish',
    choices: [
      { id: 'oak', label: 'Natural oak', price: 120 },
      { id: 'ash', label: 'Ash' },
    ],
  },
];

export interface SharedProjectOptions {
  name?: string;
  formFields?: unknown[];
  pricingBlocks?: unknown[];
  optionBlocks?: unknown[];
  projectSettings?: Record<string, unknown>;
  /** More sceneData keys (pricingFormula, ...). */
  sceneData?: Record<string, unknown>;
  password?: string;
}

/** Creates a project with a form and turns its share on; returns its id and share token. */
export async function createSharedProject(server: TestServer, owner: TestPerson, options: SharedProjectOptions = {}) {
  const created = await fetch(`${server.url}/projects`, {
    method: 'POST',
    headers: { ...owner.headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: options.name ?? 'Oak Chair',
      type: 'configurator',
      data: {
        models: [],
        sceneData: {
          formFields: options.formFields ?? FORM_FIELDS,
          optionBlocks: options.optionBlocks ?? OPTION_BLOCKS,
          pricingBlocks: options.pricingBlocks ?? [],
          projectSettings: options.projectSettings ?? {},
          ...options.sceneData,
        },
      },
    }),
  });
  expect(created.status).toBe(201);
  const { project } = await created.json();
  const shared = await fetch(`${server.url}/projects/${project.id}/share`, {
    method: 'PUT',
    headers: { ...owner.headers, 'content-type': 'application/json' },
    body: JSON.stringify(
      options.password
        ? { isEnabled: true, requirePassword: true, password: options.password, domainRestrictions: [] }
        : { isEnabled: true, requirePassword: false, domainRestrictions: [] },
    ),
  });
  expect(shared.status).toBe(200);
  const { settings } = await shared.json();
  return { projectId: project.id as string, token: settings.shareToken as string };
}

export const validBody = (extra: Record<string, unknown> = {}) => ({
  formData: { name: 'Ada Lovelace', email: 'ada@example.com', notes: 'Call after 5 pm' },
  selectedOptions: { wood: 'oak' },
  configurationSummary: 'Oak chair with a natural finish',
  ...extra,
});

/** POST .../submit with the public key; `body` may be a string to send as is. */
export function submit(
  baseUrl: string,
  share: { projectId: string; token: string },
  body: unknown,
  headers: Record<string, string> = {},
) {
  return fetch(`${baseUrl}/share/${share.projectId}/${share.token}/submit`, {
    method: 'POST',
    headers: { ...PUBLIC_HEADERS, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Polls `probe` until it returns something truthy (the test's own timeout bounds the wait). */
export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = 25_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface StepRow {
  step: string;
  state: string;
  attempts: number;
  last_error: string | null;
}

export async function stepRows(db: Db, submissionId: string): Promise<Record<string, StepRow>> {
  const { rows } = await db.$client.query<StepRow>(
    'select step, state, attempts, last_error from submission_steps where submission_id = $1',
    [submissionId],
  );
  return Object.fromEntries(rows.map((r) => [r.step, r]));
}

/** Resolves once every step of the request left `pending`. */
export function waitForSteps(db: Db, submissionId: string, timeoutMs?: number) {
  return waitFor(
    async () => {
      const rows = await stepRows(db, submissionId);
      // Four steps, five with the visitor's copy; all are stored with the request.
      return Object.keys(rows).length >= 4 && Object.values(rows).every((r) => r.state !== 'pending') ? rows : null;
    },
    `the steps of ${submissionId}`,
    timeoutMs,
  );
}

/** Worker settings for tests: short locks and a quick relay, so recoveries happen in seconds. */
export function workerEnv(env: Record<string, string>, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ...env,
    WORKER_LOCK_DURATION_MS: '3000',
    OUTBOX_RELAY_INTERVAL_MS: '200',
    OUTBOX_RESEND_AFTER_MS: '3000',
    ...overrides,
  };
}

export function workerConfig(env: Record<string, string>, overrides: Record<string, string> = {}): WorkerConfig {
  return loadWorkerConfig(workerEnv(env, overrides));
}

/** The worker in this process, silent. */
export function startTestWorker(
  env: Record<string, string>,
  overrides: Record<string, string> = {},
): Promise<WorkerApp> {
  return startWorker(workerConfig(env, overrides), { log: createLogger('silent') });
}
