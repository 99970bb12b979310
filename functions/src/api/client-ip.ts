// The client's address, from what the platform saw (never from a spoofable X-Forwarded-For).
import type { Context } from 'hono';

export function clientIp(c: Context): string {
  const viewer = c.req.header('cloudfront-viewer-address');
  const env = c.env as
    | {
        incoming?: { socket?: { remoteAddress?: string } };
        requestContext?: { http?: { sourceIp?: string } };
      }
    | undefined;
  const lambdaIp = env?.requestContext?.http?.sourceIp;
  // CloudFront-Viewer-Address is set by CloudFront (ip:port); trust it only behind API Gateway.
  if (lambdaIp && viewer) return viewer.slice(0, viewer.lastIndexOf(':')) || lambdaIp;
  return lambdaIp ?? env?.incoming?.socket?.remoteAddress ?? 'unknown';
}
