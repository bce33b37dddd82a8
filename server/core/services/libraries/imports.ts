import { PROVIDER_IDS, type Asset, type ImportJob, type ProviderId } from '../../platform/db/schema/index.js';
import { MAX_DOWNLOAD_BYTES, type Libraries, type LibraryItem } from '../../platform/libraries/index.js';
import { withTimeout } from '../../platform/deadline.js';
import { createOutboxRepository } from '../../repositories/outbox.js';
import { importOutboxJob } from '../../jobs/queues.js';
import { createImportRepository } from '../../repositories/imports.js';
import { forbidden, invalidRequest, notFound } from '../../domain/errors.js';
import {
  LibraryError,
  authRequired,
  importTooLarge,
  libraryUnavailable,
  licenseAckRequired,
  licenseBlocked,
  notImportable,
  providerNotConfigured,
  tooManyImports,
} from '../../domain/libraries/library-errors.js';
import { blockedReason } from '../../domain/libraries/licences.js';
import type { AssetService } from '../assets.js';
import type { ServiceDeps } from '../service-deps.js';
import type { LibraryConnectionService } from './library-connection.js';

/** Imports that may run at once per workspace (docs/libraries.md, Imports: 3). */
const MAX_ACTIVE_IMPORTS = 3;
/** GET /external-assets/imports: the most recent jobs (docs/libraries.md, Routes: 20). */
const RECENT_IMPORTS = 20;

export interface ImportRequest {
  provider: string;
  providerAssetId: string;
  acknowledgeLicense?: boolean;
  category?: string;
}

export type ImportStart = { kind: 'queued'; job: ImportJob } | { kind: 'reused'; asset: Asset };

export interface ImportServiceOptions {
  libraries: Libraries;
  connections: LibraryConnectionService;
  assets: AssetService;
  /** LIBRARY_TIMEOUT_MS: the re-read of the model before the job is queued. */
  timeoutMs: number;
}

/**
 * Starting and reading library imports (docs/libraries.md, Imports): checks in the order given there before any
 * download, then the 3-running limit under a per-workspace Postgres lock; the worker does the rest.
 */
export function createImportService(deps: ServiceDeps, options: ImportServiceOptions) {
  const repo = createImportRepository(deps.db);
  const outbox = createOutboxRepository(deps.db);
  const { libraries, connections, assets, timeoutMs } = options;

  async function readModel(provider: ProviderId, id: string): Promise<LibraryItem> {
    const adapter = libraries.byId[provider];
    let item: LibraryItem | null;
    try {
      item = await withTimeout(
        (signal) => adapter.get(id, { signal }),
        timeoutMs,
        `${adapter.name} did not answer within ${timeoutMs} ms`,
      );
    } catch (error) {
      if (error instanceof LibraryError && error.kind === 'not_found') throw notFound('Model');
      if (error instanceof LibraryError && error.kind === 'auth' && provider === 'library_b')
        throw authRequired('library_b refused our credentials; connect your account again.');
      throw libraryUnavailable(provider, error instanceof Error ? error.message : 'no answer');
    }
    if (!item) throw notFound('Model');
    return item;
  }

  return {
    /** `mayWrite`: the person's seat may change assets (viewers may not), checked in the order of docs/libraries.md. */
    async start(
      workspaceId: string,
      person: { id: string; mayWrite: boolean },
      request: ImportRequest,
    ): Promise<ImportStart> {
      const provider = request.provider as ProviderId;
      if (!(PROVIDER_IDS as readonly string[]).includes(provider)) {
        throw invalidRequest(`provider must be one of ${PROVIDER_IDS.join(', ')}.`, [
          { field: 'body.provider', message: 'is not a library' },
        ]);
      }
      const id = request.providerAssetId.trim();
      if (id === '' || id.length > 200)
        throw invalidRequest('providerAssetId must be 1 to 200 characters.', [
          { field: 'body.providerAssetId', message: 'is invalid' },
        ]);
      const configured =
        provider === 'library_b' ? connections.available() : libraries.byId[provider].importAvailable();
      if (!configured) throw providerNotConfigured(provider);

      // What no action of the person can change comes first: the model, then its licence.
      const item = await readModel(provider, id);
      if (!item.importable)
        throw notImportable(
          item.notImportableReason ?? 'The library offers no download of this model that can be imported.',
        );
      if (item.licenseTier === 'blocked') throw licenseBlocked(`${blockedReason(item)} (${item.license})`);
      if (item.licenseTier === 'conditions' && request.acknowledgeLicense !== true) throw licenseAckRequired();

      // Reuse needs neither a seat that writes nor a library account: the workspace already has the model.
      const existing = await repo.importedAsset(workspaceId, provider, item.providerAssetId);
      if (existing) return { kind: 'reused', asset: existing };

      if (!person.mayWrite) throw forbidden('Viewers cannot change anything.');
      if (provider === 'library_b' && !(await connections.isConnected(person.id))) throw authRequired();
      // Cheap refusal now; the saving transaction checks the plan again under its lock.
      await assets.assertBelowQuota(workspaceId);
      if (item.downloadSize !== undefined && item.downloadSize > MAX_DOWNLOAD_BYTES)
        throw importTooLarge(MAX_DOWNLOAD_BYTES);

      const job = await deps.inTransaction(async ({ tx, afterCommit }) => {
        await repo.lockWorkspace(tx, workspaceId);
        // A second start of a model already on its way joins that import.
        const running = await repo.findActive(tx, workspaceId, provider, item.providerAssetId);
        if (running) return running;
        if ((await repo.countActive(tx, workspaceId)) >= MAX_ACTIVE_IMPORTS) throw tooManyImports(MAX_ACTIVE_IMPORTS);
        const row = await repo.insert(tx, {
          workspaceId,
          personId: person.id,
          provider,
          providerAssetId: item.providerAssetId,
          category: request.category ?? null,
          licenseAcknowledged: request.acknowledgeLicense === true,
        });
        const job = importOutboxJob(row.id);
        const [outboxId] = await outbox.add(tx, [job]);
        afterCommit(() => deps.outbox?.nudge([{ ...job, id: outboxId }], deps.log));
        return row;
      });
      return { kind: 'queued', job };
    },

    async get(workspaceId: string, jobId: string): Promise<ImportJob> {
      const row = await repo.get(workspaceId, jobId);
      if (!row) throw notFound('Import job');
      return row;
    },

    recent: (workspaceId: string) => repo.recent(workspaceId, RECENT_IMPORTS),
  };
}
