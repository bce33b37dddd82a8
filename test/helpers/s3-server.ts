import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTsProcess } from './child-process.js';

/** s3rver accepts any signature made with these (its documented defaults). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The settings that point a process at this server (STORAGE_DRIVER=s3, S3_*). */
  env: Record<string, string>;
  /** Stops the server (its objects stay on disk until close): the bucket "goes away". */
  kill(): Promise<void>;
  /** Starts it again on the same port and folder, with the objects it had. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real S3 REST server (s3rver, in a process of its own, on its own temporary folder) with one
 * bucket: what the S3 driver talks to in tests and benchmarks, instead of a stub of the SDK.
 */
export async function startS3Server(options: { bucket?: string } = {}): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 'cs-s3rver-'));
  const bucket = options.bucket ?? 'config-share-test';
  const start = async (port: number) => {
    const started = startTsProcess('test/helpers/s3-server-main.ts', {
      S3RVER_DIR: directory,
      S3RVER_BUCKET: bucket,
      S3RVER_PORT: String(port),
    });
    await started.waitForOutput(/s3rver listening on \d+/);
    return started;
  };
  let handle = await start(0);
  const port = Number(/s3rver listening on (\d+)/.exec(handle.output())![1]);
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: '1',
    },
    async kill() {
      await handle.stop();
    },
    async restart() {
      await handle.stop();
      handle = await start(port);
    },
    async close() {
      await handle.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
