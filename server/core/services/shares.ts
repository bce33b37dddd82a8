import type { ShareSettingsRow } from '../platform/db/schema/index.js';
import { createShareRepository, type SharePatch } from '../repositories/shares.js';
import { createProjectRepository } from '../repositories/projects.js';
import { emitEvent } from './events.js';
import { invalidRequest, notFound } from '../domain/errors.js';
import { parseHostRules } from '../domain/embed-hosts.js';
import { hashPassword } from '../platform/password-hashing.js';
import { newShareToken } from '../domain/share-token.js';
import { noticeShareChange, nudgeDeliveries, type ServiceDeps } from './service-deps.js';

/** The whole settings object of PUT /projects/:id/share; omitted fields take their defaults. */
export interface ShareSettingsInput {
  isEnabled?: boolean;
  requirePassword?: boolean;
  password?: string;
  domainRestrictions?: string[];
}

/**
 * Owner share settings (docs/api.md, Share settings). Every committed change notifies every
 * server and BFF, so a disabled share or rotated token stops answering at once everywhere.
 */
export function createShareService(deps: ServiceDeps) {
  const repo = createShareRepository(deps.db);
  const projects = createProjectRepository(deps.db);

  /**
   * Applies `patch(current)` under the row lock (null: nothing to change). Enabling a share emits
   * project.published in the same transaction, so the event exists exactly when the share went live.
   */
  async function change(
    workspaceId: string,
    projectId: string,
    patch: (current: ShareSettingsRow) => SharePatch | null,
  ): Promise<ShareSettingsRow> {
    const row = await deps.inTransaction(async ({ tx, afterCommit }) => {
      const found = await repo.lockForChange(tx, workspaceId, projectId);
      if (!found) return null;
      const changes = patch(found.row);
      if (!changes) return found.row;
      const updated = await repo.update(tx, projectId, changes);
      if (!found.row.isEnabled && updated.isEnabled) {
        const emitted = await emitEvent(deps, tx, {
          workspaceId,
          projectId,
          type: 'project.published',
          data: { projectId, name: found.project.name, publishedAt: updated.updatedAt.toISOString() },
        });
        afterCommit(nudgeDeliveries(deps, emitted));
      }
      afterCommit(noticeShareChange(deps, { reason: 'share', projectId, workspaceId }));
      return updated;
    });
    if (!row) throw notFound('Project');
    return row;
  }

  return {
    async get(workspaceId: string, projectId: string): Promise<ShareSettingsRow> {
      const row = await repo.get(workspaceId, projectId);
      if (!row) throw notFound('Project');
      return row;
    },

    /** Turns the link on (project.published when it was off). */
    enable: (workspaceId: string, projectId: string) =>
      change(workspaceId, projectId, (current) => (current.isEnabled ? null : { isEnabled: true })),

    /** Replaces the whole settings object; the token is kept. */
    async replace(workspaceId: string, projectId: string, input: ShareSettingsInput): Promise<ShareSettingsRow> {
      const { isEnabled = false, requirePassword = false, password, domainRestrictions = [] } = input;
      const hosts = parseHostRules(domainRestrictions);
      if (hosts.invalid.length > 0) {
        const details = hosts.invalid.map((index) => ({
          field: `body.domainRestrictions.${index}`,
          message: 'must be a host name, *.host or host:port',
        }));
        throw invalidRequest(`${details[0].field} ${details[0].message}`, details);
      }
      if (requirePassword && password === undefined) {
        throw invalidRequest('body.password is required when requirePassword is true', [
          { field: 'body.password', message: 'is required when requirePassword is true' },
        ]);
      }
      // Hashing costs about half a second: done before the row lock, and only for a project the
      // caller can see. A password sent without requirePassword is not stored.
      let passwordHash: string | null = null;
      if (requirePassword && password !== undefined) {
        if (!(await projects.exists(workspaceId, projectId))) throw notFound('Project');
        passwordHash = await hashPassword(password);
      }
      return change(workspaceId, projectId, () => ({
        isEnabled,
        requirePassword,
        passwordHash,
        domainRestrictions: hosts.rules,
      }));
    },

    /** Rotates the token; the old one stops working at once. */
    regenerate: (workspaceId: string, projectId: string) =>
      change(workspaceId, projectId, () => ({ shareToken: newShareToken() })),
  };
}
