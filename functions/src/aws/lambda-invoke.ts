// A synchronous Lambda invocation with a JSON payload, as the crawl coordinator calls the crawler and the
// crawler calls the crawl writer. A function error (the handler threw) becomes an Error with its message.
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';

export async function invokeJson(
  client: LambdaClient,
  functionName: string,
  payload: unknown,
  what: string,
): Promise<unknown> {
  const out = await client.send(
    new InvokeCommand({ FunctionName: functionName, Payload: Buffer.from(JSON.stringify(payload)) }),
  );
  const text = Buffer.from(out.Payload ?? new Uint8Array()).toString('utf8');
  if (out.FunctionError) throw new Error(`${what} failed: ${errorMessageOf(text)}`);
  return JSON.parse(text);
}

/** Lambda's error payload is {errorType, errorMessage, …}: its message, cut. */
function errorMessageOf(payload: string): string {
  try {
    const message = (JSON.parse(payload) as { errorMessage?: unknown }).errorMessage;
    if (typeof message === 'string') return message.slice(0, 1000);
  } catch {}
  return payload.slice(0, 1000);
}
