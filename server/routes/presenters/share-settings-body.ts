import type { ShareSettingsRow } from '../../core/platform/db/schema/index.js';

/** The settings as every owner route answers them: never the password or its hash. */
export function toSettingsBody(row: ShareSettingsRow) {
  return {
    isEnabled: row.isEnabled,
    shareToken: row.shareToken,
    domainRestrictions: row.domainRestrictions,
    requirePassword: row.requirePassword,
  };
}
