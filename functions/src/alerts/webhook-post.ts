// Sends one webhook delivery: a POST of the JSON body, signed (webhook-signature.ts), to an address the
// user typed. That address is attacker input like a crawled URL: it goes through the crawler's SSRF guard
// (resolved, every address checked, the socket pinned to the checked one), redirects are not followed
// (a receiver that moved is told by the failure), and the answer is read only far enough to quote it.
import http from 'node:http';
import https from 'node:https';
import { pinnedLookup, type TargetGuard } from '../crawler/guard';
import { SIGNATURE_HEADER, signWebhook } from './webhook-signature';

const TIMEOUT_MS = 10_000;
/** Of a receiver's answer, this much is kept to show with a failed delivery. */
const ANSWER_BYTES = 300;

export interface WebhookAnswer {
  status: number;
  /** The start of the answer's body (for the deliveries list when it failed). */
  text: string;
}

/** POSTs `body` to `url`, signed with `secret`; the answer's status. Throws on a refused address or no answer. */
export async function postWebhook(
  url: string,
  body: string,
  secret: string,
  guard: TargetGuard,
  now = Date.now(),
): Promise<WebhookAnswer> {
  const target = new URL(url);
  guard.checkScheme(target);
  const addresses = await guard.resolve(
    target.hostname,
    Number(target.port || (target.protocol === 'https:' ? 443 : 80)),
  );
  return new Promise((resolve, reject) => {
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'CSP Generator webhooks',
          [SIGNATURE_HEADER]: signWebhook(secret, body, now),
        },
        lookup: pinnedLookup(addresses) as never,
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < ANSWER_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= ANSWER_BYTES) res.destroy();
        });
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8').slice(0, ANSWER_BYTES),
          });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}
