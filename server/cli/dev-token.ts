import type { ServerConfig } from '../config.js';
import type { Role } from '../core/platform/db/schema/index.js';
import { issueAccessToken } from '../core/platform/tokens.js';
import { AppError } from '../core/domain/errors.js';
import type { WorkspaceService } from '../core/services/workspaces.js';
import { CliError } from './run-cli.js';

/** Development access tokens live this long. */
export const DEV_TOKEN_TTL = '24h';

export interface DevTokenRequest {
  /** Lower-cased e-mail of the person. */
  email: string;
  /** An existing workspace the person joins (or is re-roled in). */
  workspaceId?: string;
  /** Their role there (default editor). */
  role?: Role;
}

export interface DevToken {
  token: string;
  userId: string;
  /** The person's personal workspace: the token's default. */
  workspaceId: string;
}

/**
 * The person behind `npm run token` (and `npm start`'s demo owner), created when missing, with a
 * fresh 24 h token. Nothing is written when the target workspace does not exist.
 */
export async function issueDevToken(
  workspaces: WorkspaceService,
  config: Pick<ServerConfig, 'auth'>,
  request: DevTokenRequest,
): Promise<DevToken> {
  const { email, workspaceId } = request;
  if (workspaceId && !(await workspaces.exists(workspaceId)))
    throw new CliError(`workspace ${workspaceId} does not exist`);
  const person = await workspaces.ensurePersonByEmail(email);
  if (!person.defaultWorkspaceId) throw new CliError(`${email} has no personal workspace`);
  if (workspaceId) {
    try {
      await workspaces.setMember(workspaceId, person.id, request.role ?? 'editor');
    } catch (error) {
      // The service's refusals (the last owner) are the command's user errors.
      throw error instanceof AppError ? new CliError(error.message) : error;
    }
  }
  const token = await issueAccessToken(config.auth, person.subject, person.email ?? email, DEV_TOKEN_TTL);
  return { token, userId: person.id, workspaceId: person.defaultWorkspaceId };
}
