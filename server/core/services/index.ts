import type { Redis } from 'ioredis';
import type { UrlSigner } from '../platform/storage/signed-urls.js';
import type { OutboxNudger } from '../jobs/outbox.js';
import { createApiKeyService } from './api-keys.js';
import { createAssetService, type CheckModel, type OutlineModel } from './assets.js';
import { createAssetDeliveryService } from './asset-delivery.js';
import { createProjectService } from './projects.js';
import { createProjectRevisionService } from './project-revisions.js';
import { createProjectPreviewService } from './project-preview.js';
import { createSceneReportService } from './scene-report.js';
import { createPublicShareService } from './public-share/public-share.js';
import { createShareService } from './shares.js';
import { createSubmissionService } from './submissions.js';
import { createWorkspaceService } from './workspaces.js';
import type { ServiceDeps } from './service-deps.js';
import type { WebhookSender } from '../platform/webhook-sender.js';
import type { WebhookSettings } from '../platform/config/pieces.js';
import { createDeliveryAttempts } from './webhooks/delivery-attempts.js';
import { createWebhookService } from './webhooks/webhook-service.js';
import type { Libraries } from '../platform/libraries/index.js';
import { createLibraryConnectionService, type LibraryConnectionSettings } from './libraries/library-connection.js';
import { createLibrarySearchService } from './libraries/library-search.js';
import { createImportService } from './libraries/imports.js';
import { createVisitorEventService } from './visitor-events.js';
import { createVisitorAnalyticsService } from './visitor-analytics.js';
import { createConfigurationService, type CartSettings } from './configurations.js';

export interface ServicesOptions {
  /** Fail-fast Redis of the request path. */
  redis: Redis;
  /** Prefix of this deployment's Redis keys (QUEUE_PREFIX). */
  prefix: string;
  signer: UrlSigner;
  outbox: OutboxNudger;
  signedModelLimit: number;
  /** The model check uploads run (off the event loop: the CPU pool). */
  checkModel: CheckModel;
  /** A stored model's outline, for assets saved before outlines (off the event loop: the CPU pool). */
  outlineModel: OutlineModel;
  /** Sends the webhook test endpoint's attempts. */
  webhookSender: WebhookSender;
  webhooks: WebhookSettings['webhooks'];
  /** The online libraries' adapters. */
  libraries: Libraries;
  /** The library settings (LIBRARY_*, DASHBOARD_URL, TOKEN_ENCRYPTION_KEY, QUEUE_PREFIX). */
  librarySettings: LibraryConnectionSettings;
  /** The API's own callback route: where library_b sends the browser back unless LIBRARY_B_REDIRECT_URL says. */
  ownLibraryCallback: string;
  /** The cart's keys and lifetimes (CART_* settings). */
  cart: CartSettings;
  /** PUBLIC_BASE_URL: the cart tokens' issuer. */
  issuer: string;
}

/** Every service of the API, built once per process from the same deps: what routes and CLIs call. */
export function createServices(baseDeps: ServiceDeps, options: ServicesOptions) {
  const deps: ServiceDeps = { ...baseDeps, outbox: options.outbox };
  const deliveries = createAssetDeliveryService(deps);
  const publicShare = createPublicShareService({
    askDeliveries: (assetIds) => deliveries.askLazily(assetIds.map((id) => ({ id }))),
    db: deps.db,
    redis: options.redis,
    prefix: options.prefix,
    signer: options.signer,
    signedModelLimit: options.signedModelLimit,
    cartAvailable: options.cart.signingKey !== null,
  });
  const assets = createAssetService(deps, { checkModel: options.checkModel, outlineModel: options.outlineModel });
  const sceneReport = createSceneReportService(deps);
  const warningsFor: typeof sceneReport.warningsFor = (workspaceId, data) => sceneReport.warningsFor(workspaceId, data);
  const libraryConnections = createLibraryConnectionService(
    { db: deps.db, redis: options.redis, libraries: options.libraries, log: deps.log },
    options.librarySettings,
    options.ownLibraryCallback,
  );
  return {
    workspaces: createWorkspaceService(deps),
    apiKeys: createApiKeyService(deps),
    projects: createProjectService(deps, { warningsFor }),
    projectRevisions: createProjectRevisionService(deps),
    projectPreview: createProjectPreviewService(deps, { publicShare, warningsFor }),
    sceneReport,
    shares: createShareService(deps),
    assets,
    deliveries,
    libraryConnections,
    librarySearch: createLibrarySearchService({
      db: deps.db,
      redis: options.redis,
      prefix: options.prefix,
      libraries: options.libraries,
      connections: libraryConnections,
      timeoutMs: options.librarySettings.libraryTimeoutMs,
      log: deps.log,
    }),
    imports: createImportService(deps, {
      libraries: options.libraries,
      connections: libraryConnections,
      assets,
      timeoutMs: options.librarySettings.libraryTimeoutMs,
    }),
    publicShare,
    visitorEvents: createVisitorEventService({ ...deps, parsedScene: (access) => publicShare.parsedScene(access) }),
    visitorAnalytics: createVisitorAnalyticsService(deps),
    submissions: createSubmissionService({
      ...deps,
      outbox: options.outbox,
      formFields: (access) => publicShare.formFields(access),
      parsedScene: (access) => publicShare.parsedScene(access),
    }),
    configurations: createConfigurationService({
      ...deps,
      cart: options.cart,
      signer: options.signer,
      issuer: options.issuer,
      parsedScene: (access) => publicShare.parsedScene(access),
    }),
    webhooks: createWebhookService({
      ...deps,
      outbox: options.outbox,
      allowInsecure: options.webhooks.allowInsecure,
      attempts: createDeliveryAttempts({
        db: deps.db,
        sender: options.webhookSender,
        retryScheduleMs: options.webhooks.retryScheduleMs,
      }),
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
