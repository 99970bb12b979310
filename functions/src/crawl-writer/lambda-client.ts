// The crawler's CrawlWriter in AWS: each call a synchronous invocation of the crawl writer function, the
// one function the crawler's role may invoke.
import { LambdaClient } from '@aws-sdk/client-lambda';
import { invokeJson } from '../aws/lambda-invoke';
import { type CrawlWriter, crawlWriterOver } from './writer';

export function lambdaCrawlWriter(functionName: string, client = new LambdaClient({})): CrawlWriter {
  return crawlWriterOver((request) => invokeJson(client, functionName, request, 'The crawl writer'));
}
