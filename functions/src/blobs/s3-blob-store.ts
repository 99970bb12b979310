// BlobStore on S3 (the deployed stack's artefact bucket).
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { assertBlobKey, type BlobStore } from './blob-store';

export interface S3BlobStoreOptions {
  /**
   * The role may not list the bucket (the crawler's): S3 then answers a missing key with AccessDenied
   * rather than NoSuchKey, and a get reads it as absent.
   */
  deniedMeansMissing?: boolean;
}

export class S3BlobStore implements BlobStore {
  constructor(
    private readonly bucket: string,
    private readonly client: S3Client = new S3Client({}),
    private readonly options: S3BlobStoreOptions = {},
  ) {}

  async put(key: string, body: string | Uint8Array, contentType = 'application/octet-stream'): Promise<void> {
    assertBlobKey(key);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    assertBlobKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!out.Body) return null;
      return Buffer.from(await out.Body.transformToByteArray());
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'NoSuchKey' || name === 'NotFound') return null;
      if (name === 'AccessDenied' && this.options.deniedMeansMissing) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
