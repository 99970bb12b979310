// SQS's SendMessage and SendMessageBatch (the AWS JSON 1.0 protocol the SDK speaks), on loopback: the Lambda
// entries send to their queues through the real @aws-sdk/client-sqs, which takes the queue URL as its
// endpoint. Messages are kept in order for the test to read. Nothing else of SQS is offered.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackSqs {
  queueUrl(name: string): string;
  /** Bodies received per queue name, in order. */
  messages(name: string): string[];
  /** The MessageGroupId of each message received per queue name (fair queues' tenant), in order. */
  groups(name: string): (string | undefined)[];
  close(): Promise<void>;
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

export async function startLoopbackSqs(): Promise<LoopbackSqs> {
  const received = new Map<string, string[]>();
  const groups = new Map<string, (string | undefined)[]>();
  const keep = (queueUrl: string, body: string, group?: string) => {
    const name = new URL(queueUrl).pathname.split('/').pop() ?? '';
    received.set(name, [...(received.get(name) ?? []), body]);
    groups.set(name, [...(groups.get(name) ?? []), group]);
  };
  let n = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString();
    });
    req.on('end', () => {
      const action = String(req.headers['x-amz-target'] ?? '').replace('AmazonSQS.', '');
      const input = JSON.parse(raw || '{}') as {
        QueueUrl: string;
        MessageBody?: string;
        MessageGroupId?: string;
        Entries?: { Id: string; MessageBody: string; MessageGroupId?: string }[];
      };
      let out: unknown;
      if (action === 'SendMessage' && input.MessageBody !== undefined) {
        keep(input.QueueUrl, input.MessageBody, input.MessageGroupId);
        out = { MessageId: `m-${++n}`, MD5OfMessageBody: md5(input.MessageBody) };
      } else if (action === 'SendMessageBatch' && input.Entries) {
        for (const e of input.Entries) keep(input.QueueUrl, e.MessageBody, e.MessageGroupId);
        out = {
          Successful: input.Entries.map((e) => ({
            Id: e.Id,
            MessageId: `m-${++n}`,
            MD5OfMessageBody: md5(e.MessageBody),
          })),
          Failed: [],
        };
      } else {
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify({ __type: 'UnsupportedOperation', message: action }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(out));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    queueUrl: (name) => `http://127.0.0.1:${port}/000000000000/${name}`,
    messages: (name) => received.get(name) ?? [],
    groups: (name) => groups.get(name) ?? [],
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}
