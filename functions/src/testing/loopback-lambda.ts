// Lambda's Invoke (RequestResponse) on loopback: the entries that invoke other functions (the crawl
// coordinator → the crawler, the crawler → the crawl writer) do it through the real @aws-sdk/client-lambda,
// pointed here by AWS_ENDPOINT_URL_LAMBDA. Each function name is served by a handler the test registers (the
// real Lambda entries); a handler that throws answers as Lambda does, with X-Amz-Function-Error.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type InvokedHandler = (event: unknown, context: { getRemainingTimeInMillis(): number }) => unknown;

export interface LoopbackLambda {
  endpoint: string;
  register(name: string, handler: InvokedHandler): void;
  /** Function names in the order they were invoked. */
  invoked: string[];
  close(): Promise<void>;
}

export async function startLoopbackLambda(timeoutMs = 120_000): Promise<LoopbackLambda> {
  const handlers = new Map<string, InvokedHandler>();
  const invoked: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const name = decodeURIComponent(/\/functions\/([^/]+)\/invocations/.exec(req.url ?? '')?.[1] ?? '');
      const handler = handlers.get(name);
      if (req.method !== 'POST' || !handler) {
        res.writeHead(404, {
          'content-type': 'application/json',
          'x-amzn-errortype': 'ResourceNotFoundException',
        });
        res.end(JSON.stringify({ Type: 'User', message: `Function not found: ${name}` }));
        return;
      }
      invoked.push(name);
      const started = Date.now();
      const context = { getRemainingTimeInMillis: () => timeoutMs - (Date.now() - started) };
      try {
        const out = await handler(JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'), context);
        res.writeHead(200, { 'content-type': 'application/json', 'x-amz-executed-version': '$LATEST' });
        res.end(JSON.stringify(out ?? null));
      } catch (err) {
        res.writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' });
        res.end(
          JSON.stringify({
            errorType: 'Error',
            errorMessage: err instanceof Error ? err.message : String(err),
          }),
        );
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    register: (name, handler) => handlers.set(name, handler),
    invoked,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
