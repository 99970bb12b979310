// Grants spelled as the calls the code makes, instead of CDK's grant*() helpers (which add actions the
// functions never call, such as sqs:GetQueueAttributes or secretsmanager:DescribeSecret).
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';

/** SendMessage, which also authorizes SendMessageBatch (the report queue's call). */
export function grantSend(grantee: IGrantable, queue: IQueue): void {
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }),
  );
}

/** GetSecretValue of one secret (AWS-managed encryption key: no kms:Decrypt to grant). */
export function grantSecretValue(grantee: IGrantable, secret: ISecret): void {
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }),
  );
}
