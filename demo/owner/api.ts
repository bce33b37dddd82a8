/**
 * The console's typed client of the owner API (docs/api.md). Errors become `ApiError` with the API's error
 * code and message, so panels can show them as they are.
 */
import type { Static } from 'typebox';
import type * as Analytics from '#core/wire/analytics.js';
import type { LibraryItem } from '#core/wire/library-item.js';
import type * as Libraries from '#core/wire/libraries.js';
import type * as MeShapes from '#core/wire/me.js';
import type { OutlineReply } from '#core/wire/outline.js';
import type { CartConfiguration } from '#core/wire/configurations.js';
import type { SceneWarning } from '#core/wire/configurator/index.js';
import type * as Projects from '#core/wire/projects.js';
import type * as Requests from '#core/wire/requests.js';
import type * as SceneReports from '#core/wire/scene-report.js';
import type * as Shares from '#core/wire/share-settings.js';
import type * as Webhooks from '#core/wire/webhooks.js';

// The shapes are the server's own schemas (server/core/wire), so the console cannot drift from the API.
export type Me = Static<typeof MeShapes.MeReply>;
export type ProjectSummary = Static<typeof Projects.ProjectSummary>;
export type ShareSettings = Static<typeof Shares.ShareSettings>;
type ShareUpdate = Static<typeof Shares.ShareSettingsInput>;
export type Webhook = Static<typeof Webhooks.Webhook>;
type WebhookInput = Static<typeof Webhooks.WebhookInput>;
export type WebhookTest = Static<typeof Webhooks.TestReply>['test'];
export type DeliveryRecord = Static<typeof Webhooks.DeliveryRecord>;
export type RequestSummary = Static<typeof Requests.RequestSummary>;
export type RequestDetail = Static<typeof Requests.RequestDetail>;
export type StepName = keyof RequestSummary['steps'];
export type StepState = Static<typeof Requests.StepStateSchema>;
export type RequestStatus = Requests.RequestStatus;
/** A library model as the search and details answer it (server/core/wire/library-item.ts). */
export type { LibraryItem };
export type SearchResult = Static<typeof Libraries.SearchReply>;
export type LibraryDescription = Static<typeof Libraries.ProvidersReply>['providers'][number];
/** An import job, its readiness (an open object in the schema) typed as the server writes it. */
export type ImportJob = Omit<Static<typeof Libraries.ImportJob>, 'readiness'> & {
  readiness: Libraries.ImportReadiness | null;
};
export type AnalyticsReport = Static<typeof Analytics.AnalyticsReply>;
export type DayCounters = AnalyticsReport['totals'];
export type SceneReport = Static<typeof SceneReports.SceneReportReply>;
export type Project = Static<typeof Projects.ProjectReply>['project'];
/** A project as the editor holds it: the read plus the revision its ETag names. */
export interface ProjectRead {
  project: Project;
  etag: string;
}
/** POST and PUT /projects (and a restore) answer the saved project with the scene report's warnings. */
export interface ProjectSaved {
  success: boolean;
  project: Project;
  warnings: SceneWarning[];
}
export interface RevisionSummary {
  revision: number;
  savedAt: string;
  savedBy: { id: string; email: string | null } | null;
}
export interface RevisionContent {
  revision: number;
  name: string;
  type: string;
  data: Record<string, unknown>;
  savedAt: string;
}
/**
 * The public read's payload built from unsaved data (docs/api.md, Revisions and preview), for the element's `preview`.
 */
export interface PreviewReply {
  success: boolean;
  payload: Record<string, unknown>;
  warnings: SceneWarning[];
}
export type { CartConfiguration };
export interface ConfigurationPage {
  configurations: CartConfiguration[];
  nextCursor: string | null;
}
/** An asset as GET/POST /assets answer it (server/schemas/assets.ts, outside the browser-safe wire). */
export interface Asset {
  id: string;
  name: string;
  fileName: string;
  sizeBytes: number;
  sourceFormat: 'glb' | 'gltf' | 'zip';
  url: string;
  modelInfo: Record<string, unknown>;
  externalSource: Record<string, unknown> | null;
  readinessScore: number | null;
  readinessLevel: 'ready' | 'needs-work' | 'not-ready' | null;
  /** The optimized file shoppers download (docs/delivery-files.md). */
  delivery: {
    status: 'pending' | 'ready' | 'skipped' | 'failed';
    sizeBytes: number | null;
    originalBytes: number;
    reason: string | null;
  };
  createdAt: string;
}
export interface ProjectInput {
  name: string;
  type: string;
  data: object;
}
type ImportStart =
  Static<typeof Libraries.ImportReused> | (Static<typeof Libraries.ImportAccepted> & { job: ImportJob });

/** The labels the console reads from a project's scene; the schema leaves `data` open, as owners store it free-form. */
export interface ProjectLabels {
  formFields?: Array<{ id?: string; label?: string }>;
  optionBlocks?: Array<{ id?: string; name?: string; choices?: Array<{ id?: string; label?: string }> }>;
}

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
export type SearchFilters = Omit<Static<typeof Libraries.SearchQuery>, 'providers' | 'pageSize'> & {
  q: string;
  providers?: string[];
};

export interface Credentials {
  apiBase: string;
  token: string;
  workspaceId?: string;
}

const enc = encodeURIComponent;

export function createApi(credentials: Credentials) {
  function authHeaders(): Record<string, string> {
    const headers: Record<string, string> = { authorization: `Bearer ${credentials.token}` };
    if (credentials.workspaceId) headers['x-workspace-id'] = credentials.workspaceId;
    return headers;
  }

  async function call<T>(method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
    return (await send<T>(method, path, body, extra)).json;
  }

  async function send<T>(method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
    const headers = { ...authHeaders(), ...extra };
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
        `The API at ${credentials.apiBase} did not answer ` +
          "(is it running, and is this page's origin in CONSOLE_ORIGINS?).",
      );
    }
    const text = await res.text();
    let json: Record<string, unknown>;
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      json = {};
    }
    if (!res.ok)
      throw new ApiError(res.status, String(json.error ?? 'http'), String(json.message ?? `HTTP ${res.status}`), json);
    return { json: json as T, etag: res.headers.get('etag') ?? '' };
  }

  /** A multipart upload through XMLHttpRequest, the one browser API that reports upload progress. */
  function upload(file: File, onProgress: (fraction: number) => void): Promise<Asset> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${credentials.apiBase}/assets`);
      for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded / event.total);
      };
      xhr.onerror = () => reject(new ApiError(0, 'network', `The API at ${credentials.apiBase} did not answer.`));
      xhr.onload = () => {
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(xhr.responseText) as Record<string, unknown>;
        } catch {
          // An empty or non-JSON answer is reported by its status below.
        }
        if (xhr.status >= 200 && xhr.status < 300) return resolve(json.asset as Asset);
        reject(
          new ApiError(xhr.status, String(json.error ?? 'http'), String(json.message ?? `HTTP ${xhr.status}`), json),
        );
      };
      const form = new FormData();
      form.append('file', file, file.name);
      xhr.send(form);
    });
  }

  const project = (id: string) => `/projects/${enc(id)}`;
  const webhook = (projectId: string, id: string) => `${project(projectId)}/webhooks/${enc(id)}`;

  const settings = (reply: Promise<Static<typeof Shares.ShareSettingsReply>>) => reply.then((r) => r.settings);

  return {
    credentials,
    me: () => call<Me>('GET', '/me'),
    projects: () => call<Static<typeof Projects.ProjectListReply>>('GET', '/projects?limit=100'),

    share: (id: string) => settings(call('GET', `${project(id)}/share`)),
    putShare: (id: string, update: ShareUpdate) => settings(call('PUT', `${project(id)}/share`, update)),
    enableShare: (id: string) => settings(call('POST', `${project(id)}/share/enable`)),
    regenerateShare: (id: string) => settings(call('POST', `${project(id)}/share/regenerate`)),

    webhooks: (projectId: string) =>
      call<Static<typeof Webhooks.WebhookListReply>>('GET', `${project(projectId)}/webhooks`).then((r) => r.webhooks),
    putWebhook: (projectId: string, id: string, body: WebhookInput) =>
      call<Static<typeof Webhooks.WebhookReply>>('PUT', webhook(projectId, id), body),
    deleteWebhook: (projectId: string, id: string) => call<unknown>('DELETE', webhook(projectId, id)),
    testWebhook: (projectId: string, id: string) =>
      call<Static<typeof Webhooks.TestReply>>('POST', `${webhook(projectId, id)}/test`).then((r) => r.test),
    deliveries: (projectId: string, id: string) =>
      call<Static<typeof Webhooks.DeliveriesReply>>('GET', `${webhook(projectId, id)}/deliveries`).then(
        (r) => r.deliveries,
      ),
    redeliver: (projectId: string, id: string, deliveryId: string) =>
      call<Static<typeof Webhooks.RedeliverReply>>(
        'POST',
        `${webhook(projectId, id)}/deliveries/${enc(deliveryId)}/redeliver`,
      ),

    createProject: (input: ProjectInput) => call<ProjectSaved>('POST', '/projects', input),
    /** The full project and its ETag (`"r<revision>"`), which a save sends back as If-Match. */
    project: async (id: string): Promise<ProjectRead> => {
      const { json, etag } = await send<Static<typeof Projects.ProjectReply>>('GET', project(id));
      return { project: json.project, etag: etag || `"r${json.project.revision}"` };
    },
    /** PUT with If-Match when `ifMatch` is given: another revision answers 412 revision_conflict. */
    putProject: (id: string, input: ProjectInput, ifMatch?: string) =>
      call<ProjectSaved>('PUT', project(id), input, ifMatch ? { 'if-match': ifMatch } : {}),
    deleteProject: (id: string) => call<unknown>('DELETE', project(id)),
    /** The project card's picture (docs/api.md, "Project thumbnails"). */
    putThumbnail: (id: string, image: string) =>
      call<{ thumbnailUrl: string }>('PUT', `${project(id)}/thumbnail`, { image }),
    revisions: (id: string) =>
      call<{ revisions: RevisionSummary[] }>('GET', `${project(id)}/revisions`).then((r) => r.revisions),
    revision: (id: string, revision: number) => call<RevisionContent>('GET', `${project(id)}/revisions/${revision}`),
    restoreRevision: (id: string, revision: number, ifMatch?: string) =>
      call<ProjectSaved>(
        'POST',
        `${project(id)}/revisions/${revision}/restore`,
        undefined,
        ifMatch ? { 'if-match': ifMatch } : {},
      ),
    preview: (id: string, data: unknown) => call<PreviewReply>('POST', `${project(id)}/preview`, { data }),
    assets: () => call<{ assets: Asset[] }>('GET', '/assets?limit=100').then((r) => r.assets),
    asset: (id: string) => call<{ asset: Asset }>('GET', `/assets/${enc(id)}`).then((r) => r.asset),
    uploadAsset: upload,
    outline: (assetId: string) =>
      call<Static<typeof OutlineReply>>('GET', `/assets/${enc(assetId)}/outline`).then((r) => r.outline),

    projectLabels: (projectId: string) =>
      call<Static<typeof Projects.ProjectReply>>('GET', project(projectId)).then(
        (r) => (r.project.data as { sceneData?: ProjectLabels }).sceneData ?? {},
      ),
    analytics: (projectId: string, range: { from: string; to: string; top?: number }) => {
      const query = new URLSearchParams({ from: range.from, to: range.to, top: String(range.top ?? 10) });
      return call<AnalyticsReport>('GET', `${project(projectId)}/analytics?${query}`);
    },
    /** The project's cart configurations, newest first, `limit` a page; `cursor` is the last page's `nextCursor`. */
    configurations: (projectId: string, page: { limit: number; cursor?: string }) => {
      const query = new URLSearchParams({ limit: String(page.limit), ...(page.cursor ? { cursor: page.cursor } : {}) });
      return call<ConfigurationPage>('GET', `${project(projectId)}/configurations?${query}`);
    },
    sceneReport: (projectId: string) => call<SceneReport>('GET', `${project(projectId)}/scene-report`),
    requests: (projectId: string) =>
      call<Static<typeof Requests.RequestListReply>>('GET', `${project(projectId)}/requests?limit=50`),
    request: (projectId: string, id: string) =>
      call<Static<typeof Requests.RequestReply>>('GET', `${project(projectId)}/requests/${enc(id)}`).then(
        (r) => r.request,
      ),
    setRequestStatus: (projectId: string, id: string, status: RequestStatus) =>
      call<Static<typeof Requests.RequestReply>>('PATCH', `${project(projectId)}/requests/${enc(id)}`, { status }),

    libraries: () => call<Static<typeof Libraries.ProvidersReply>>('GET', '/external-assets/providers'),
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
      call<Static<typeof Libraries.ItemReply>>('GET', `/external-assets/items/${enc(provider)}/${enc(id)}`),
    startImport: (provider: string, providerAssetId: string, acknowledgeLicense: boolean) => {
      const body: Static<typeof Libraries.ImportBody> = { provider, providerAssetId, acknowledgeLicense };
      return call<ImportStart>('POST', '/external-assets/imports', body);
    },
    importJob: (jobId: string) =>
      call<Static<typeof Libraries.ImportJobReply>>('GET', `/external-assets/imports/${enc(jobId)}`).then(
        (r) => r.job as ImportJob,
      ),
    libraryBConnection: () =>
      call<Static<typeof Libraries.ConnectionReply>>('GET', '/external-providers/library_b/connection'),
    connectLibraryB: () => call<Static<typeof Libraries.ConnectReply>>('POST', '/external-providers/library_b/connect'),
    disconnectLibraryB: () =>
      call<Static<typeof Libraries.DisconnectReply>>('DELETE', '/external-providers/library_b/connection'),
  };
}

export type Api = ReturnType<typeof createApi>;
