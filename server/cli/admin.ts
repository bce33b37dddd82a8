import { parseArgs } from 'node:util';
import { loadServerConfig } from '../config.js';
import { BILLING_STATUSES, type BillingStatus } from '../core/platform/db/schema/index.js';
import { AppError } from '../core/domain/errors.js';
import { openCliServices, type CliServices } from './cli-services.js';
import { loadRuntimeEnv } from './local-env.js';
import { CliError, UsageError, runCli } from './run-cli.js';
import { UUID } from '../core/domain/ids.js';

/**
 * `npm run admin -- workspace <workspaceId> [--billing locked|active] [--model-limit N]`: operator changes
 * that have no public API; prints the workspace after the change as JSON.
 * `npm run admin -- delivery --all | <assetId>...`: asks the worker for delivery files (docs/delivery-files.md).
 */
const USAGE =
  `usage: npm run admin -- workspace <workspaceId> [--billing ${BILLING_STATUSES.join('|')}] ` +
  `[--model-limit N]
       npm run admin -- delivery --all | <assetId>...

  --billing      locked: the public share read answers 402 unavailable/owner_billing; active: lifts it
  --model-limit  the plan's 3D model limit (assets the workspace may hold), 0 or more
  delivery       queues delivery files for the worker: --all for every asset without one (never made, or failed),
                 or the given assets whatever their state; prints how many were queued`;

/** model_limit is a Postgres integer. */
const MAX_MODEL_LIMIT = 2_147_483_647;

interface WorkspaceChange {
  command: 'workspace';
  workspaceId: string;
  billingStatus?: BillingStatus;
  modelLimit?: number;
}

interface DeliveryRequest {
  command: 'delivery';
  /** Null: every asset without a delivery file. */
  assetIds: string[] | null;
}

function parse(argv: string[]): WorkspaceChange | DeliveryRequest | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        billing: { type: 'string' },
        'model-limit': { type: 'string' },
        all: { type: 'boolean', default: false },
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
  const [command, ...args] = positionals;
  if (command === 'delivery') {
    if (values.billing !== undefined || values['model-limit'] !== undefined)
      throw new UsageError('delivery takes --all or asset ids, nothing else');
    if (values.all === args.length > 0) throw new UsageError('delivery needs either --all or asset ids');
    const notAnId = args.find((id) => !UUID.test(id));
    if (notAnId) throw new UsageError(`"${notAnId}" is not an asset id`);
    return { command, assetIds: values.all ? null : args.map((id) => id.toLowerCase()) };
  }
  if (command !== 'workspace') throw new UsageError(command ? `unknown command "${command}"` : 'a command is required');
  if (values.all) throw new UsageError('--all belongs to delivery');
  const [workspaceId, ...rest] = args;
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
    command,
    workspaceId,
    billingStatus: billing as BillingStatus | undefined,
    modelLimit: limit === undefined ? undefined : Number(limit),
  };
}

async function changeWorkspace(services: CliServices, change: WorkspaceChange) {
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
  return {
    id: row.id,
    name: row.name,
    billingStatus: row.billingStatus,
    modelLimit: row.modelLimit,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function askDeliveries(services: CliServices, { assetIds }: DeliveryRequest) {
  if (!assetIds) return { queued: await services.deliveries.askForAllMissing() };
  const queued = await services.deliveries.askFor(assetIds);
  const missing = assetIds.filter((id) => !queued.includes(id));
  if (missing.length > 0) throw new CliError(`no asset ${missing.join(', ')}; nothing was queued for it`);
  return { queued: queued.length };
}

async function main(): Promise<void> {
  const request = parse(process.argv.slice(2));
  if (request === 'help') {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  loadRuntimeEnv();
  const config = loadServerConfig();
  const services = await openCliServices(config);
  try {
    const shown =
      request.command === 'workspace'
        ? await changeWorkspace(services, request)
        : await askDeliveries(services, request);
    process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
  } finally {
    await services.close();
  }
}

await runCli(USAGE, main);
