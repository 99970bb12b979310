// Test helpers for violation reports: one report as Firefox sends it, through the real endpoint, waiting
// for what the asynchronous consumer does with it, and the counters a flood leaves.

import { hourOf } from '@csp/shared/reports/group';
import { counterItem, counterShard } from '../store/report-counts';

/**
 * The counter items of `n` distinct img-src sources reported once each this hour: what a flood of made-up
 * origins leaves, for tests to write straight into the table.
 */
export function floodCounterItems(
  domainId: string,
  n: number,
  sourceOf = (i: number) => `https://flood-${i}.example`,
): Record<string, unknown>[] {
  const now = new Date().toISOString();
  const hour = hourOf(now);
  return Array.from({ length: n }, (_, i) => {
    const source = sourceOf(i);
    return counterItem(domainId, {
      shard: counterShard('img-src', source),
      hour,
      directive: 'img-src',
      source,
      hits: 1,
      firstSeen: now,
      lastSeen: now,
    });
  });
}

/** POSTs one csp-report for a page of https://site.example to a domain's endpoint; the response. */
export function sendReport(
  baseUrl: string,
  domainUuid: string,
  report: Record<string, string> = {
    'document-uri': 'https://site.example/',
    'violated-directive': 'img-src',
    'blocked-uri': 'https://x.example/a.png',
  },
): Promise<Response> {
  return fetch(`${baseUrl}/api/uri-report?domain=${domainUuid}`, {
    method: 'POST',
    headers: { 'content-type': 'application/csp-report' },
    body: JSON.stringify({ 'csp-report': report }),
  });
}

/** Reads until `done` holds (the consumer works in the background); the last value read. */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}
