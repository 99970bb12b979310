// The blob store for this environment: S3 when a bucket is configured (AWS), else DATA_DIR/blobs.
import { join } from 'node:path';
import type { BlobStore } from './blob-store';
import { LocalBlobStore } from './local-blob-store';
import { S3BlobStore } from './s3-blob-store';

export type { BlobStore } from './blob-store';
export { LocalBlobStore } from './local-blob-store';
export { S3BlobStore } from './s3-blob-store';

export function createBlobStore(config: { BLOB_BUCKET?: string; DATA_DIR: string }): BlobStore {
  return config.BLOB_BUCKET
    ? new S3BlobStore(config.BLOB_BUCKET)
    : new LocalBlobStore(join(config.DATA_DIR, 'blobs'));
}
