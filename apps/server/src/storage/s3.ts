/**
 * S3-compatible storage (AWS S3, MinIO, Ceph, R2, …): results and uploads in flight to queue
 * workers, as objects `<key>` in one bucket. `@aws-sdk/client-s3` is imported on first use, so
 * a server that keeps files on local disk never loads it.
 *
 * Every failure to reach the store becomes a StorageUnavailableError: HTTP 503 with the
 * contract's SERVICE_UNAVAILABLE message, the SDK's error (addresses, bucket) kept as `cause` for
 * the log only. A missing object is `null`, not an error.
 */
import path from 'node:path';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { CONTENT_TYPES, assertValidKey, type Storage, type StoredObject, type StoredStream } from './storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
  /** How long one request may take before it counts as a failure (ms); default 30 s. */
  requestTimeoutMs?: number;
  /** Attempts per call, retries included (the SDK's backoff between them); default 3. */
  maxAttempts?: number;
}

/** The store could not be reached or refused the request. The message is safe to log; `cause` has the detail. */
export class StorageUnavailableError extends Error {
  /** Read by the error handler: answered as 503 SERVICE_UNAVAILABLE. */
  readonly statusCode = 503;
  constructor(operation: string, cause: unknown) {
    super(
      `storage ${operation} failed: ${(cause as Error)?.name ?? 'error'}: ${(cause as Error)?.message ?? String(cause)}`,
      { cause },
    );
    this.name = 'StorageUnavailableError';
  }
}

type Sdk = typeof import('@aws-sdk/client-s3');

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

export class S3Storage implements Storage {
  readonly kind = 's3';
  private loaded: Promise<{ sdk: Sdk; client: S3Client }> | undefined;

  constructor(private readonly options: S3StorageOptions) {}

  private load(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.loaded ??= import('@aws-sdk/client-s3').then((sdk) => {
      const o = this.options;
      const client = new sdk.S3Client({
        region: o.region,
        ...(o.endpoint ? { endpoint: o.endpoint } : {}),
        ...(o.credentials ? { credentials: o.credentials } : {}),
        forcePathStyle: o.forcePathStyle,
        maxAttempts: o.maxAttempts ?? 3,
        // Checksums only where the API requires them: many S3-compatible stores reject the
        // newer default (CRC32 trailers on every upload) or do not send them back.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        requestHandler: { connectionTimeout: 5_000, requestTimeout: o.requestTimeoutMs ?? 30_000 },
      });
      return { sdk, client };
    });
    return this.loaded;
  }

  /** Runs one SDK call, turning any failure into a StorageUnavailableError. */
  private async call<T>(operation: string, run: (sdk: Sdk, client: S3Client) => Promise<T>): Promise<T> {
    const { sdk, client } = await this.load();
    try {
      return await run(sdk, client);
    } catch (err) {
      throw new StorageUnavailableError(operation, err);
    }
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    assertValidKey(key);
    await this.call('put', (sdk, client) =>
      client.send(
        new sdk.PutObjectCommand({
          Bucket: this.options.bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          ContentLength: body.byteLength,
        }),
      ),
    );
  }

  async get(key: string): Promise<StoredObject | null> {
    assertValidKey(key);
    const { sdk, client } = await this.load();
    try {
      const res = await client.send(new sdk.GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      if (!res.Body) return null;
      const body = Buffer.from(await res.Body.transformToByteArray());
      const byExtension = CONTENT_TYPES[path.extname(key).toLowerCase()];
      return { body, contentType: byExtension ?? res.ContentType ?? 'application/octet-stream' };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw new StorageUnavailableError('get', err);
    }
  }

  async open(key: string): Promise<StoredStream | null> {
    assertValidKey(key);
    const { sdk, client } = await this.load();
    try {
      const res = await client.send(new sdk.GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      // On Node the SDK's body is a Readable (an IncomingMessage with the SDK's helpers mixed in).
      if (!(res.Body instanceof Readable)) return null;
      const byExtension = CONTENT_TYPES[path.extname(key).toLowerCase()];
      return {
        stream: res.Body,
        contentType: byExtension ?? res.ContentType ?? 'application/octet-stream',
        size: res.ContentLength,
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw new StorageUnavailableError('get', err);
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    // S3 answers 204 for a missing key too.
    await this.call('delete', (sdk, client) =>
      client.send(new sdk.DeleteObjectCommand({ Bucket: this.options.bucket, Key: key })),
    );
  }

  /**
   * Lists `prefix` page by page and keeps keys last modified before `before`. The bucket's listing
   * is in key order, not by age: with many recent objects each call reads past them again, which
   * is cheap next to a retention interval of minutes (1,000 keys a request).
   */
  async listOlderThan(prefix: string, before: Date, limit: number): Promise<string[]> {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.call('list', (sdk, client) =>
        client.send(
          new sdk.ListObjectsV2Command({
            Bucket: this.options.bucket,
            Prefix: prefix,
            MaxKeys: 1000,
            ...(token ? { ContinuationToken: token } : {}),
          }),
        ),
      );
      for (const obj of page.Contents ?? []) {
        if (out.length >= limit) break;
        if (obj.Key && obj.LastModified && obj.LastModified < before) out.push(obj.Key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token && out.length < limit);
    return out;
  }

  /** The bucket exists and these credentials may use it (HEAD bucket, no object written). */
  async check(): Promise<void> {
    await this.call('check', (sdk, client) => client.send(new sdk.HeadBucketCommand({ Bucket: this.options.bucket })));
  }

  async close(): Promise<void> {
    if (!this.loaded) return;
    const { client } = await this.loaded;
    client.destroy();
  }
}
