import { parseArgs } from 'node:util';
import path from 'node:path';
import { loadSettings } from '../core/platform/config/settings.js';
import { SCHEMAS } from '../core/platform/config/pieces.js';
import { createLocalDriver } from '../core/platform/storage/local-driver.js';
import { createS3Driver } from '../core/platform/storage/s3-driver.js';
import { copyObjects } from '../core/platform/storage/copy-objects.js';
import { assertStorageUsable } from '../core/platform/storage/index.js';
import { loadRuntimeEnv } from './local-env.js';
import { CliError, UsageError, runCli } from './run-cli.js';

/**
 * Copies a local store into the S3 bucket so an installation can move to S3. Idempotent and resumable: run it again
 * right before switching STORAGE_DRIVER and it copies only what is missing. Progress on stderr, summary JSON on stdout.
 */
const USAGE = `usage: npm run storage:copy -- [--from <folder>] [--concurrency N] [--dry-run]

  --from         the local store to copy (default: STORAGE_DIR, ${JSON.stringify('.data/storage')} unless set)
  --concurrency  objects copied at once, 1 to 32 (default 4)
  --dry-run      list what would be copied, write nothing

The bucket comes from S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY,
S3_FORCE_PATH_STYLE and S3_PREFIX (STORAGE_DRIVER itself may still be local).`;

function parse(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        from: { type: 'string' },
        concurrency: { type: 'string', default: '4' },
        'dry-run': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  const concurrency = Number(values.concurrency);
  if (!/^[0-9]+$/.test(values.concurrency) || concurrency < 1 || concurrency > 32)
    throw new UsageError('--concurrency must be a whole number from 1 to 32');
  return { help: values.help, from: values.from, concurrency, dryRun: values['dry-run'] };
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  if (args.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  loadRuntimeEnv();
  // The bucket's settings whatever STORAGE_DRIVER says: this command is how one moves to s3.
  const { storage: settings } = loadSettings(SCHEMAS.worker, { ...process.env, STORAGE_DRIVER: 's3' });
  const from = path.resolve(args.from ?? process.env.STORAGE_DIR ?? '.data/storage');
  const source = createLocalDriver(from);
  const target = createS3Driver(settings.s3);
  try {
    await assertStorageUsable(target);
    const started = Date.now();
    let seen = 0;
    const result = await copyObjects(source, target, {
      concurrency: args.concurrency,
      dryRun: args.dryRun,
      onObject(key, outcome, progress) {
        seen++;
        if (outcome === 'failed') process.stderr.write(`failed: ${key}: ${progress.failed.at(-1)?.error}\n`);
        else if (args.dryRun && outcome === 'copied') process.stderr.write(`would copy: ${key}\n`);
        if (seen % 100 === 0)
          process.stderr.write(
            `${seen} objects: ${progress.copied} copied, ${progress.skipped} already there, ` +
              `${progress.failed.length} failed\n`,
          );
      },
    });
    const summary = {
      from,
      bucket: settings.s3.bucket,
      prefix: settings.s3.prefix,
      dryRun: args.dryRun,
      copied: result.copied,
      skipped: result.skipped,
      failed: result.failed.length,
      bytes: result.bytes,
      seconds: (Date.now() - started) / 1000,
    };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    if (result.failed.length > 0)
      throw new CliError(`${result.failed.length} objects could not be copied; run the command again to retry them`);
  } finally {
    await target.close();
  }
}

await runCli(USAGE, main);
