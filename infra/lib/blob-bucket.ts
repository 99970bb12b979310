// Crawl state and artefacts too large for a table item (frontier, findings of a long crawl). Private,
// TLS only, and short-lived: a crawl's blobs are worth nothing after a month.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export const BLOB_EXPIRY_DAYS = 30;

export class BlobBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      lifecycleRules: [
        {
          expiration: Duration.days(BLOB_EXPIRY_DAYS),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      // Table items point at these blobs, and the table is retained; the lifecycle empties it anyway.
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
