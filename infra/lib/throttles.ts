// Ceilings on what the public can make the product do (and cost), per API Gateway route. These are totals
// across all clients: per-client limits are the application's (sign-in failures, report rates). Sign-in,
// registration and the proof-of-work challenge are far tighter than reads; the report route has its own
// budget, and the ingest function a reserved concurrency, so a flood of reports cannot starve the API.
import type { CfnStage, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';

export interface Throttle {
  /** Steady requests per second. */
  rate: number;
  burst: number;
}

/** Every route not listed: the signed-in product's reads and writes. */
export const DEFAULT_THROTTLE: Throttle = { rate: 100, burst: 200 };

export const ROUTE_THROTTLES = {
  'POST /api/login': { rate: 10, burst: 20 },
  'POST /api/register': { rate: 2, burst: 5 },
  'GET /api/altcha-challenge': { rate: 10, burst: 20 },
  'ANY /api/uri-report': { rate: 500, burst: 1000 },
} as const satisfies Record<string, Throttle>;
export type ThrottledRoute = keyof typeof ROUTE_THROTTLES;

/** Ingest functions running at once at most: with 512 MB and ~20 ms a request, well over 1,000 reports/s. */
export const REPORT_INGEST_RESERVED_CONCURRENCY = 20;

export function applyThrottles(stage: HttpStage): void {
  const cfn = stage.node.defaultChild as CfnStage;
  cfn.defaultRouteSettings = {
    throttlingRateLimit: DEFAULT_THROTTLE.rate,
    throttlingBurstLimit: DEFAULT_THROTTLE.burst,
  };
  // A plain JSON property: written as CloudFormation spells it (CDK does not rename inside it).
  cfn.routeSettings = Object.fromEntries(
    Object.entries(ROUTE_THROTTLES).map(([route, t]) => [
      route,
      { ThrottlingRateLimit: t.rate, ThrottlingBurstLimit: t.burst },
    ]),
  );
}

/** "POST /api/login" → its method and path, for HttpApi.addRoutes. */
export function splitRoute(route: ThrottledRoute): { method: string; path: string } {
  const [method, path] = route.split(' ') as [string, string];
  return { method, path };
}
