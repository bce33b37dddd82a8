import { parseArgs } from 'node:util';
import { loadServerConfig } from '../config.js';
import { BILLING_STATUSES, type BillingStatus } from '../core/platform/db/schema/index.js';
import { AppError } from '../core/domain/errors.js';
import { openCliServices } from './cli-services.js';
import { loadRuntimeEnv } from './local-env.js';
import { CliError, UsageError, runCli } from './run-cli.js';
import { UUID } from '../core/domain/ids.js';

/**
 * `npm run admin -- workspace <workspaceId> [--billing locked|active] [--model-limit N]`: operator changes
 * that have no public API. Prints the workspace after the change as JSON.
 */
const USAGE =
  `usage: npm run admin -- workspace <workspaceId> [--billing ${BILLING_STATUSES.join('|')}] ` +
  `[--model-limit N]

  --billing      locked: the public share read answers 402 unavailable/owner_billing; active: lifts it
  --model-limit  the plan's 3D model limit (assets the workspace may hold), 0 or more`;

/** model_limit is a Postgres integer. */
const MAX_MODEL_LIMIT = 2_147_483_647;

interface WorkspaceChange {
  workspaceId: string;
  billingStatus?: BillingStatus;
  modelLimit?: number;
}

function parse(argv: string[]): WorkspaceChange | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        billing: { type: 'string' },
        'model-limit': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  const [command, workspaceId, ...rest] = positionals;
  if (command !== 'workspace') throw new UsageError(command ? `unknown command "${command}"` : 'a command is required');
  if (!workspaceId) throw new UsageError('workspace needs a workspace id');
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
  if (!UUID.test(workspaceId)) throw new UsageError(`"${workspaceId}" is not a workspace id`);

  const billing = values.billing;
  const limit = values['model-limit'];
  if (billing === undefined && limit === undefined) throw new UsageError('give --billing, --model-limit or both');
  if (billing !== undefined && !BILLING_STATUSES.includes(billing as BillingStatus)) {
    throw new UsageError(`--billing must be one of ${BILLING_STATUSES.join(', ')}`);
  }
  if (limit !== undefined && (!/^[0-9]+$/.test(limit) || Number(limit) > MAX_MODEL_LIMIT)) {
    throw new UsageError(`--model-limit must be a whole number from 0 to ${MAX_MODEL_LIMIT}`);
  }
  return {
    workspaceId,
    billingStatus: billing as BillingStatus | undefined,
    modelLimit: limit === undefined ? undefined : Number(limit),
  };
}

async function main(): Promise<void> {
  const change = parse(process.argv.slice(2));
  if (change === 'help') {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  loadRuntimeEnv();
  const config = loadServerConfig();
  const services = await openCliServices(config);
  try {
    const { billingStatus, modelLimit } = change;
    const row = await services.workspaces
      .change(change.workspaceId, {
        ...(billingStatus ? { billingStatus } : {}),
        ...(modelLimit !== undefined ? { modelLimit } : {}),
      })
      .catch((error: unknown) => {
        throw error instanceof AppError && error.statusCode === 404
          ? new CliError(`workspace ${change.workspaceId} does not exist`)
          : error;
      });
    const shown = {
      id: row.id,
      name: row.name,
      billingStatus: row.billingStatus,
      modelLimit: row.modelLimit,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
    process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
  } finally {
    await services.close();
  }
}

await runCli(USAGE, main);
