// Large artefacts that do not belong in a DynamoDB item (a crawl's resumable state, full artifacts):
// one small interface, a local folder under DATA_DIR for `npm start`, S3 in AWS.
export interface BlobStore {
  put(key: string, body: string | Uint8Array, contentType?: string): Promise<void>;
  /** The stored bytes, or null when there is no such key. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}

/**
 * Keys are relative paths of plain segments (`crawls/<id>/state.json`): no `..`, no leading slash, no
 * backslash — the local store maps them onto the file system.
 */
export function assertBlobKey(key: string): void {
  if (
    key.length === 0 ||
    key.length > 512 ||
    key.startsWith('/') ||
    key.includes('\\') ||
    key.includes('\0') ||
    key.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')
  ) {
    throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
  }
}
