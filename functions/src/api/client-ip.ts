// The client's address, from what the platform saw. Behind CloudFront (proven by the origin-verify header,
// see middleware/origin-guard.ts) that is CloudFront's viewer address; otherwise the connection's own
// address. A spoofable X-Forwarded-For from the open internet is never trusted.
import type { Context } from 'hono';
import type { ApiEnv } from './deps';

export function clientIp(c: Context<ApiEnv>): string {
  const env = c.env as
    | {
        incoming?: { socket?: { remoteAddress?: string } };
        requestContext?: { http?: { sourceIp?: string } };
      }
    | undefined;
  const direct = env?.requestContext?.http?.sourceIp ?? env?.incoming?.socket?.remoteAddress ?? 'unknown';
  if (!c.var.deps.secrets.originVerify) return direct;
  // CloudFront-Viewer-Address is "ip:port" (IPv6 too, so cut at the last colon).
  const viewer = c.req.header('cloudfront-viewer-address');
  if (viewer?.includes(':')) return viewer.slice(0, viewer.lastIndexOf(':'));
  // CloudFront appends the viewer to X-Forwarded-For; API Gateway then appends CloudFront's own address.
  const chain = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return chain.length >= 2 ? chain[chain.length - 2]! : direct;
}
