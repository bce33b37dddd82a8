/**
 * A small typed client of the owner API for the console: every call sends the session token
 * (`Authorization: Bearer`) and, when one is chosen, `X-Workspace-Id` (contract section 2). Errors
 * become `ApiError` with the contract's code and message, so panels can show them as they are.
 */
import type { LibraryItem } from '../../server/core/wire/library-item.js';

export type Role = 'owner' | 'admin' | 'editor' | 'viewer';

export interface Me {
  person: { id: string; email: string | null };
  workspace: { id: string; role: Role };
  workspaces: Array<{ id: string; name: string; role: Role; billingStatus: 'active' | 'locked'; isDefault: boolean }>;
}

export interface ProjectSummary {
  id: string;
  name: string;
  type: string;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export interface ShareSettings {
  isEnabled: boolean;
  shareToken: string;
  domainRestrictions: string[];
  requirePassword: boolean;
}

export interface ShareUpdate {
  isEnabled: boolean;
  requirePassword: boolean;
  password?: string;
  domainRestrictions: string[];
}

export interface Webhook {
  id: string;
  name: string;
  url: string;
  events: string[];
  enabled: boolean;
  secretSet: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookTest {
  statusCode: number;
  statusText: string;
  delivered: boolean;
  deliveryId: string;
  durationMs: number;
  error: string | null;
}

export interface DeliveryRecord {
  deliveryId: string;
  webhookId: string;
  event: string;
  statusCode: number;
  delivered: boolean;
  timestamp: string;
  attempt: number;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
  deliveryState: 'pending' | 'delivered' | 'failed';
  deliveryAttempts: number;
  nextAttemptAt: string | null;
  requestExcerpt: string;
}

export type StepName = 'screenshots' | 'pdf' | 'email' | 'events';
export interface StepState {
  state: 'pending' | 'done' | 'failed';
  attempts: number;
  error?: string;
  note?: string;
  doneAt: string | null;
}

export interface RequestSummary {
  id: string;
  projectId: string;
  status: string;
  formData: Record<string, unknown>;
  selectedOptions: Record<string, unknown>;
  configurationSummary: string | null;
  createdAt: string;
  updatedAt: string;
  steps: Record<StepName, StepState>;
  screenshotCount: number;
}

export interface RequestDetail extends Omit<RequestSummary, 'screenshotCount'> {
  screenshots: Array<string | null>;
  pdfUrl: string | null;
}

/** A library model as the search and details answer it (server/core/wire/library-item.ts). */
export type { LibraryItem };

export interface LibraryStatus {
  provider: string;
  status: 'ok' | 'error' | 'skipped' | 'exhausted';
  count: number;
  total?: number;
  message?: string;
  notices?: unknown[];
}

export interface SearchResult {
  items: LibraryItem[];
  nextCursor: string | null;
  providers: LibraryStatus[];
}

export interface LibraryDescription {
  id: string;
  name: string;
  homepage: string;
  credit: string;
  requiresAccountForImport: boolean;
  supports: Record<string, boolean | string>;
  importAvailable: boolean;
  connection?: {
    connected: boolean;
    username?: string;
    displayName?: string;
    profileUrl?: string;
    connectedAt?: string;
  };
  notice?: string;
}

export interface ReadinessCheck {
  id: string;
  label: string;
  status: 'pass' | 'warn' | 'fail';
  value: unknown;
  limit: unknown;
  message: string;
}

export interface ImportJob {
  id: string;
  status: 'queued' | 'downloading' | 'processing' | 'saving' | 'completed' | 'failed';
  progress: number;
  stage: string;
  bytesReceived: number;
  bytesTotal: number | null;
  provider: string;
  providerAssetId: string;
  assetId: string | null;
  readiness: { score: number; level: string; checks: ReadinessCheck[] } | null;
  notices: unknown[] | null;
  error: { code: string; message: string } | null;
}

export type ImportStart = { reused: true; assetId: string } | { reused?: false; job: ImportJob };

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The search filters of the interface (all optional but q). */
export interface SearchFilters {
  q: string;
  providers?: string[];
  category?: string;
  license?: string;
  commercial?: '0' | '1';
  format?: string;
  maxPolygons?: string;
  cursor?: string;
}

export interface Credentials {
  apiBase: string;
  token: string;
  workspaceId?: string;
}

const enc = encodeURIComponent;

export function createApi(credentials: Credentials) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${credentials.token}` };
    if (credentials.workspaceId) headers['x-workspace-id'] = credentials.workspaceId;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${credentials.apiBase}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(
        0,
        'network',
        `The API at ${credentials.apiBase} did not answer (is it running, and is this page's origin in CONSOLE_ORIGINS?).`,
      );
    }
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      json = {};
    }
    if (!res.ok)
      throw new ApiError(res.status, String(json.error ?? 'http'), String(json.message ?? `HTTP ${res.status}`), json);
    return json as T;
  }

  const project = (id: string) => `/projects/${enc(id)}`;
  const webhook = (projectId: string, id: string) => `${project(projectId)}/webhooks/${enc(id)}`;

  return {
    credentials,
    me: () => call<Me>('GET', '/me'),
    projects: () => call<{ projects: ProjectSummary[]; nextCursor: string | null }>('GET', '/projects?limit=100'),

    share: (id: string) => call<{ settings: ShareSettings }>('GET', `${project(id)}/share`).then((r) => r.settings),
    putShare: (id: string, update: ShareUpdate) =>
      call<{ settings: ShareSettings }>('PUT', `${project(id)}/share`, update).then((r) => r.settings),
    enableShare: (id: string) =>
      call<{ settings: ShareSettings }>('POST', `${project(id)}/share/enable`).then((r) => r.settings),
    regenerateShare: (id: string) =>
      call<{ settings: ShareSettings }>('POST', `${project(id)}/share/regenerate`).then((r) => r.settings),

    webhooks: (projectId: string) =>
      call<{ webhooks: Webhook[] }>('GET', `${project(projectId)}/webhooks`).then((r) => r.webhooks),
    putWebhook: (
      projectId: string,
      id: string,
      body: { url: string; events: string[]; name?: string; enabled?: boolean; secret?: string },
    ) => call<{ webhook: Webhook; secret?: string }>('PUT', webhook(projectId, id), body),
    deleteWebhook: (projectId: string, id: string) => call<unknown>('DELETE', webhook(projectId, id)),
    testWebhook: (projectId: string, id: string) =>
      call<{ test: WebhookTest }>('POST', `${webhook(projectId, id)}/test`).then((r) => r.test),
    deliveries: (projectId: string, id: string) =>
      call<{ deliveries: DeliveryRecord[] }>('GET', `${webhook(projectId, id)}/deliveries`).then((r) => r.deliveries),
    redeliver: (projectId: string, id: string, deliveryId: string) =>
      call<unknown>('POST', `${webhook(projectId, id)}/deliveries/${enc(deliveryId)}/redeliver`),

    requests: (projectId: string) =>
      call<{ requests: RequestSummary[]; nextCursor: string | null }>('GET', `${project(projectId)}/requests?limit=50`),
    request: (projectId: string, id: string) =>
      call<{ request: RequestDetail }>('GET', `${project(projectId)}/requests/${enc(id)}`).then((r) => r.request),
    setRequestStatus: (projectId: string, id: string, status: string) =>
      call<{ request: RequestDetail }>('PATCH', `${project(projectId)}/requests/${enc(id)}`, { status }),

    libraries: () =>
      call<{ providers: LibraryDescription[]; categories: Array<{ id: string; label: string }> }>(
        'GET',
        '/external-assets/providers',
      ),
    search: (filters: SearchFilters) => {
      const query = new URLSearchParams({ q: filters.q });
      if (filters.providers?.length) query.set('providers', filters.providers.join(','));
      for (const key of ['category', 'license', 'commercial', 'format', 'maxPolygons', 'cursor'] as const) {
        const value = filters[key];
        if (value) query.set(key, value);
      }
      return call<SearchResult>('GET', `/external-assets/search?${query}`);
    },
    item: (provider: string, id: string) =>
      call<{
        asset: LibraryItem;
        alreadyImported: { assetId: string } | null;
        provider: { name: string; credit: string; homepage: string };
      }>('GET', `/external-assets/items/${enc(provider)}/${enc(id)}`),
    startImport: (provider: string, providerAssetId: string, acknowledgeLicense: boolean) =>
      call<ImportStart>('POST', '/external-assets/imports', { provider, providerAssetId, acknowledgeLicense }),
    importJob: (jobId: string) =>
      call<{ job: ImportJob }>('GET', `/external-assets/imports/${enc(jobId)}`).then((r) => r.job),
    libraryBConnection: () =>
      call<{ available: boolean; connected: boolean }>('GET', '/external-providers/library_b/connection'),
    connectLibraryB: () => call<{ url: string }>('POST', '/external-providers/library_b/connect'),
    disconnectLibraryB: () => call<unknown>('DELETE', '/external-providers/library_b/connection'),
  };
}

export type Api = ReturnType<typeof createApi>;
