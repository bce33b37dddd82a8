import { parseArgs } from 'node:util';
import { requireSetting } from '../core/platform/config/settings.js';
import { loadServerConfig } from '../config.js';
import { openCliServices } from './cli-services.js';
import { ROLES, type Role } from '../core/platform/db/schema/index.js';
import { DEV_TOKEN_TTL, issueDevToken } from './dev-token.js';
import { loadRuntimeEnv } from './local-env.js';
import { UsageError, runCli } from './run-cli.js';
import { UUID } from '../core/domain/ids.js';

/**
 * Prints a 24 h development token for a person, created with a personal workspace when missing; --workspace also adds
 * them to that workspace. --json prints only `{"token","userId","workspaceId"}` on stdout, for scripts.
 */
const USAGE =
  `usage: npm run -s token -- --email <email> [--workspace <workspaceId>] ` +
  `[--role ${ROLES.join('|')}] [--json]

  --email       the person (created with a personal workspace when missing)
  --workspace   also add the person to this existing workspace
  --role        their role there (default editor; needs --workspace)
  --json        print one JSON line {"token","userId","workspaceId"} and nothing else on stdout`;

const EMAIL = /^[^\s@]+@[^\s@]+$/;

interface TokenArgs {
  email: string;
  workspace?: string;
  role: Role;
  json: boolean;
}

function parse(argv: string[]): TokenArgs | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        workspace: { type: 'string' },
        role: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  const email = values.email?.trim().toLowerCase();
  if (!email) throw new UsageError('--email is required');
  if (!EMAIL.test(email)) throw new UsageError(`--email "${values.email}" is not an e-mail address`);
  if (values.role !== undefined && values.workspace === undefined) throw new UsageError('--role needs --workspace');
  const role = (values.role ?? 'editor') as Role;
  if (!ROLES.includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  if (values.workspace !== undefined && !UUID.test(values.workspace))
    throw new UsageError(`--workspace "${values.workspace}" is not a workspace id`);
  return { email, workspace: values.workspace, role, json: values.json };
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  if (args === 'help') {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  loadRuntimeEnv();
  const config = loadServerConfig();
  requireSetting(config.auth.jwtSecret, 'AUTH_JWT_SECRET (needed to sign tokens)');

  const services = await openCliServices(config);
  try {
    const issued = await issueDevToken(services.workspaces, config, {
      email: args.email,
      workspaceId: args.workspace,
      role: args.role,
    });
    if (args.json) {
      process.stdout.write(
        `${JSON.stringify({ token: issued.token, userId: issued.userId, workspaceId: issued.workspaceId })}\n`,
      );
      return;
    }
    // The token alone on stdout, so that TOKEN=$(npm run -s token -- --email ...) works.
    process.stdout.write(`${issued.token}\n`);
    const lines = [
      `Access token for ${args.email}, valid ${DEV_TOKEN_TTL}.`,
      `  person:             ${issued.userId}`,
      `  personal workspace: ${issued.workspaceId} (owner; the token's default)`,
      ...(args.workspace
        ? [`  member of:          ${args.workspace} as ${args.role} (send X-Workspace-Id: ${args.workspace})`]
        : []),
      '  use it as:          Authorization: Bearer <token>',
    ];
    process.stderr.write(`${lines.join('\n')}\n`);
  } finally {
    await services.close();
  }
}

await runCli(USAGE, main);
