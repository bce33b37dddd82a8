import S3rver from 's3rver';

/**
 * s3rver in a process of its own, so its memory and CPU never count against the process under test. Env: S3RVER_DIR,
 * S3RVER_BUCKET, S3RVER_PORT (0 picks a free port); prints the port it listens on.
 */
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(process.env.S3RVER_PORT ?? 0),
  silent: true,
  directory: process.env.S3RVER_DIR!,
  configureBuckets: [{ name: process.env.S3RVER_BUCKET! }],
});
const { port } = await server.run();
console.log(`s3rver listening on ${port}`);
process.on('SIGTERM', () => void server.close().finally(() => process.exit(0)));
