import { Readable, Transform } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageSettings } from '../config/pieces.js';
import {
  assertSafeKey,
  StorageUnavailableError,
  type ByteRange,
  type StorageDriver,
  type StoredObjectInfo,
  type StoredObjectStream,
} from './driver.js';

type S3Settings = StorageSettings['storage']['s3'];

/** Streams are uploaded in parts of this size, two at a time: at most ~16 MiB of a file in memory. */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

interface S3ErrorShape {
  name?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const statusOf = (error: unknown) => (error as S3ErrorShape).$metadata?.httpStatusCode;
const isMissingObject = (error: unknown) => {
  const { name } = error as S3ErrorShape;
  return name === 'NoSuchKey' || (name === 'NotFound' && statusOf(error) === 404);
};

/** Every failure of the store is "storage unavailable" to callers (503), with the store's reason kept. */
function unavailable(operation: string, key: string, error: unknown): StorageUnavailableError {
  const { name, message } = error as S3ErrorShape;
  const status = statusOf(error);
  return new StorageUnavailableError(
    `storage: ${operation} ${key} failed (${name ?? 'error'}${status ? ` ${status}` : ''}: ${message ?? 'no message'})`,
    { cause: error },
  );
}

/** One clear line for a bucket that cannot be used, naming the setting to look at. */
function describeBucketProblem(settings: S3Settings, error: unknown): string {
  const status = statusOf(error);
  const where = `bucket "${settings.bucket}" at ${settings.endpoint ?? `AWS S3 (${settings.region})`}`;
  if (status === 404) return `${where} does not exist: create it or fix S3_BUCKET`;
  if (status === 301) return `${where} is in another region: fix S3_REGION`;
  if (status === 403 || status === 400)
    return `${where} refuses these credentials: check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`;
  return `${where} cannot be reached (${(error as S3ErrorShape).message ?? String(error)}): check S3_ENDPOINT`;
}

/** Counts the bytes of a stream on their way to the store, so a short or long stream is refused. */
function countingStream(source: Readable): { stream: Readable; bytes: () => number } {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.byteLength;
      done(null, chunk);
    },
  });
  source.on('error', (error) => counter.destroy(error));
  return { stream: source.pipe(counter), bytes: () => bytes };
}

/**
 * Files in an S3-compatible bucket under S3_PREFIX. Streams go up through lib-storage's multipart Upload,
 * which aborts leaving no parts behind; `GET /files/...` redirects to a presigned GET.
 */
export function createS3Driver(settings: S3Settings): StorageDriver {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 5000, requestTimeout: 30_000 },
    // Only the checksums S3 requires: several compatible stores (older MinIO, B2, R2) reject the
    // newer default trailing checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const objectKey = (key: string) => settings.prefix + assertSafeKey(key);

  function toInfo(object: {
    ContentLength?: number;
    ContentType?: string;
    LastModified?: Date;
    ETag?: string;
  }): StoredObjectInfo {
    return {
      size: object.ContentLength ?? 0,
      contentType: object.ContentType ?? 'application/octet-stream',
      lastModified: object.LastModified ?? new Date(0),
      etag: object.ETag ?? '""',
    };
  }

  async function head(key: string): Promise<StoredObjectInfo | null> {
    try {
      return toInfo(await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) })));
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw unavailable('head', key, error);
    }
  }

  async function get(key: string, range?: ByteRange): Promise<StoredObjectStream | null> {
    try {
      const object = await client.send(
        new GetObjectCommand({
          Bucket,
          Key: objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return { ...toInfo(object), body: object.Body as Readable };
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw unavailable('get', key, error);
    }
  }

  return {
    name: 's3',
    async put(key, body, options) {
      const Key = objectKey(key);
      try {
        if (!(body instanceof Readable)) {
          await client.send(
            new PutObjectCommand({
              Bucket,
              Key,
              Body: body,
              ContentType: options.contentType,
              ContentLength: body.byteLength,
            }),
          );
          return;
        }
        const counted = countingStream(body);
        const upload = new Upload({
          client,
          params: { Bucket, Key, Body: counted.stream, ContentType: options.contentType },
          partSize: PART_SIZE,
          queueSize: PARTS_IN_FLIGHT,
          leavePartsOnError: false,
        });
        await upload.done();
        if (options.contentLength !== undefined && counted.bytes() !== options.contentLength) {
          await client.send(new DeleteObjectCommand({ Bucket, Key })).catch(() => {});
          throw new Error(`${counted.bytes()} bytes arrived, ${options.contentLength} were announced`);
        }
      } catch (error) {
        throw unavailable('put', key, error);
      }
    },
    async read(key) {
      const object = await get(key);
      if (!object) throw Object.assign(new Error(`storage: no object ${key}`), { code: 'ENOENT' });
      const chunks: Buffer[] = [];
      for await (const chunk of object.body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    get,
    head,
    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
      } catch (error) {
        if (!isMissingObject(error)) throw unavailable('delete', key, error);
      }
    },
    async *list(prefix = '') {
      try {
        for await (const page of paginateListObjectsV2(
          { client, pageSize: 1000 },
          { Bucket, Prefix: settings.prefix + prefix },
        )) {
          for (const object of page.Contents ?? []) {
            if (!object.Key) continue;
            yield {
              key: object.Key.slice(settings.prefix.length),
              size: object.Size ?? 0,
              lastModified: object.LastModified ?? new Date(0),
            };
          }
        }
      } catch (error) {
        throw unavailable('list', prefix, error);
      }
    },
    presign(key, expiresInSeconds) {
      return getSignedUrl(client, new GetObjectCommand({ Bucket, Key: objectKey(key) }), {
        expiresIn: expiresInSeconds,
      });
    },
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        throw new StorageUnavailableError(describeBucketProblem(settings, error), { cause: error });
      }
    },
    async close() {
      client.destroy();
    },
  };
}
