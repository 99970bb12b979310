// The report endpoint, POST /api/uri-report?domain={uuid}: its own Hono app and Lambda, importing nothing
// from the API. It validates, normalises and drops noise, hands accepted reports to the durable queue and
// answers 204 only once they are stored there. It reads no cookies and never waits on table writes; the
// only table read is the domain lookup, cached. Client addresses are never logged; they are stored only
// cut to /24 or /48 (truncatedAddress).
import { ORIGIN_VERIFY_HEADER } from '@csp/shared/http/edge-headers';
import { type DropReason, REPORT_LIMITS } from '@csp/shared/reports/limits';
import { fieldNoiseReason, noiseReason } from '@csp/shared/reports/noise';
import {
  maxBodyBytes,
  type ParsedReports,
  parseJsonBody,
  parseReports,
  ReportBodyError,
  reportFormat,
} from '@csp/shared/reports/normalize';
import type { FieldReport } from '@csp/shared/schemas/field-report';
import type { DropCounts, NormalizedReport, ReportMessage } from '@csp/shared/schemas/report';
import { type Context, Hono } from 'hono';
import type { Config } from '../config';
import { limitBody } from '../http/body-limit';
import { clientAddress, rateLimitSubject, truncatedAddress } from '../http/client-address';
import { carriesOriginVerify, type OriginVerify } from '../http/origin-verify';
import { errorFields, type Logger } from '../logger';
import type { DurableQueue } from '../queue/queue';
import type { Db } from '../store/db';
import { DomainCache } from './domain-cache';
import { RateLimiter } from './rate-limiter';
import { RepeatFilter } from './repeat-filter';

export interface IngestDeps {
  db: Db;
  config: Config;
  logger: Logger;
  queue: DurableQueue<ReportMessage>;
  /** CloudFront's origin-verify values: when a request carries one, the viewer address header is trusted. */
  originVerify?: OriginVerify | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Dropped-report counts waiting for the next message of their domain (at most this old). */
const DROPS_FLUSH_MS = 30_000;

/**
 * Every answer's headers, given when the response is made: setting one afterwards (a middleware after
 * next()) turns the adapter's plain response into a full Fetch Response, a third of the handler's time.
 */
const HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '86400',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * The 204, made as a Response with a plain header object: Hono's c.body() copies every header into a
 * Headers object, which the Node adapter then reads back into a plain one, on every report. The init is
 * shared and never changed (the adapter copies the headers before it adds one).
 */
const NO_CONTENT: ResponseInit = { status: 204, headers: HEADERS };

function fromCloudFront(c: Context, verify: OriginVerify | undefined): boolean {
  return verify !== undefined && carriesOriginVerify(c.req.header(ORIGIN_VERIFY_HEADER), verify.accepted());
}

export function createIngestApp(deps: IngestDeps) {
  const { config, logger, queue } = deps;
  const domains = new DomainCache(deps.db);
  const perClient = new RateLimiter(config.REPORT_CLIENT_PER_MINUTE, config.REPORT_CLIENT_PER_MINUTE / 60);
  const perDomain = new RateLimiter(config.REPORT_DOMAIN_PER_SECOND * 2, config.REPORT_DOMAIN_PER_SECOND);
  const repeats = new RepeatFilter(REPORT_LIMITS.repeatWindowMs);
  const pendingDrops = new Map<string, { uuid: string; counts: DropCounts; since: number }>();

  const addDrops = (domainId: string, uuid: string, counts: DropCounts) => {
    const p = pendingDrops.get(domainId) ?? { uuid, counts: {}, since: Date.now() };
    for (const [reason, n] of Object.entries(counts) as [DropReason, number][]) {
      p.counts[reason] = (p.counts[reason] ?? 0) + n;
    }
    pendingDrops.set(domainId, p);
  };
  /** Drop counts ride on the next message of their domain; alone only once they are DROPS_FLUSH_MS old. */
  const takeDrops = (domainId: string, force: boolean): DropCounts | null => {
    const p = pendingDrops.get(domainId);
    if (!p || (!force && Date.now() - p.since < DROPS_FLUSH_MS)) return null;
    pendingDrops.delete(domainId);
    return p.counts;
  };

  const error = (c: Context, status: 400 | 404 | 413 | 415 | 429 | 503, message: string, headers = {}) =>
    c.json({ message }, status, { ...HEADERS, ...headers });
  // One body limit per format, made once (not on every request).
  const singleBodyLimit = limitBody(maxBodyBytes('single'));
  const batchBodyLimit = limitBody(maxBodyBytes('batch'));

  const app = new Hono();
  app.onError((err, c) => {
    logger.error('report ingest failed', errorFields(err));
    return error(c, 503, 'The report could not be stored. Please try again.');
  });

  app.options('/api/uri-report', () => new Response(null, NO_CONTENT));

  app.post(
    '/api/uri-report',
    async (c, next) => {
      const format = reportFormat(c.req.header('content-type'));
      if (!format) {
        return error(
          c,
          415,
          'Reports must be sent as application/csp-report, application/json or application/reports+json',
        );
      }
      return (format === 'batch' ? batchBodyLimit : singleBodyLimit)(c, next);
    },
    async (c) => {
      const uuid = c.req.query('domain');
      if (!uuid) return error(c, 400, 'The domain query parameter is required');
      if (!UUID.test(uuid)) return error(c, 400, 'The domain query parameter must be a domain uuid');

      const address = clientAddress(c, fromCloudFront(c, deps.originVerify));
      const subject = rateLimitSubject(address);
      if (!perClient.take(subject)) {
        return error(c, 429, 'Too many reports from this client', {
          'Retry-After': String(perClient.retryAfter(subject)),
        });
      }
      const key = uuid.toLowerCase();
      // A cached domain without a turn of the event loop: the common case.
      const hit = domains.cached(key);
      const domain = hit !== undefined ? hit : await domains.get(key);
      if (!domain) return error(c, 404, 'Unknown domain');

      const receivedAt = new Date();
      const receivedIso = receivedAt.toISOString();
      let parsed: ParsedReports;
      try {
        parsed = parseReports(parseJsonBody(await c.req.text()), {
          receivedAt,
          userAgent: c.req.header('user-agent'),
        });
      } catch (err) {
        if (err instanceof ReportBodyError) return error(c, 400, err.message);
        throw err;
      }
      // Field hashes count like CSP reports against the domain's rate.
      const n = Math.max(1, parsed.reports.length + parsed.fieldReports.length);
      if (!perDomain.take(domain.id, n)) {
        return error(c, 429, 'Too many reports for this domain', {
          'Retry-After': String(perDomain.retryAfter(domain.id, n)),
        });
      }

      let dropped: DropCounts | null = null;
      if (parsed.otherTypes > 0) dropped = { 'other-type': parsed.otherTypes };
      const accepted: NormalizedReport[] = [];
      const acceptedField: FieldReport[] = [];
      const client = `${domain.id}\n${address}`;
      const drop = (reason: DropReason) => {
        dropped ??= {};
        dropped[reason] = (dropped[reason] ?? 0) + 1;
      };
      for (const r of parsed.reports) {
        const reason: DropReason | null =
          noiseReason(r, domain.site) ?? (repeats.isRepeat(client, r) ? 'repeat' : null);
        if (reason === null) accepted.push(r);
        else drop(reason);
      }
      for (const r of parsed.fieldReports) {
        const reason: DropReason | null =
          fieldNoiseReason(r, domain.site) ?? (repeats.isFieldRepeat(client, r) ? 'repeat' : null);
        if (reason === null) acceptedField.push(r);
        else drop(reason);
      }
      if (dropped) addDrops(domain.id, domain.uuid, dropped);

      const base = {
        domainId: domain.id,
        domainUuid: domain.uuid,
        receivedAt: receivedIso,
        clientIp: truncatedAddress(address),
      };
      const messages: ReportMessage[] = [];
      for (let i = 0; i < accepted.length; i += REPORT_LIMITS.maxReportsPerMessage) {
        messages.push({
          ...base,
          reports: accepted.slice(i, i + REPORT_LIMITS.maxReportsPerMessage),
          dropped: {},
        });
      }
      for (let i = 0; i < acceptedField.length; i += REPORT_LIMITS.maxReportsPerMessage) {
        messages.push({
          ...base,
          reports: [],
          fieldReports: acceptedField.slice(i, i + REPORT_LIMITS.maxReportsPerMessage),
          dropped: {},
        });
      }
      const drops = takeDrops(domain.id, messages.length > 0);
      if (drops) {
        if (messages[0]) messages[0].dropped = drops;
        else messages.push({ ...base, reports: [], dropped: drops });
      }
      if (messages.length > 0) {
        try {
          await queue.sendAll(messages);
        } catch (err) {
          // Not answered 204, so not accepted: the drops go back to wait for the next message.
          if (drops) addDrops(domain.id, domain.uuid, drops);
          logger.error('report queue refused a message', { domainId: domain.id, ...errorFields(err) });
          return error(c, 503, 'The report could not be stored. Please try again.');
        }
      }
      return new Response(null, NO_CONTENT);
    },
  );

  app.all('/api/uri-report', (c) =>
    c.json({ message: 'Method not allowed' }, 405, { ...HEADERS, Allow: 'POST, OPTIONS' }),
  );
  return app;
}
