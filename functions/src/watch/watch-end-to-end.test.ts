// The watch end to end, as a merchant uses it: a loopback site analysed by its schedule twice (the local
// server's clock moved past each due time, not waited for), changing in between — a first-party script's
// content (authorized after the first run), a third-party script that starts loading a fourth-party one,
// the CSP header dropped on a page. After the second run the inventory has the changed authorized script
// pending again, drift is found, and a webhook receiver on loopback gets the alerts grouped (one per kind,
// not one per script or page), each signed: the signature verifies with the secret shown when the webhook
// was added, and a tampered body fails.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../alerts/webhook-signature';
import type { FixtureResponse } from '../crawler/fixtures/content';
import { startFixtureSites } from '../crawler/fixtures/sites';
import { registeredClient, startTestServer } from '../testing/api-server';
import { loopbackCrawlHandler } from '../testing/crawl-handler';
import { perTestServers } from '../testing/per-test-servers';
import { until } from '../testing/reports';

const live = perTestServers();
const DAY = 86_400_000;

interface Delivery {
  body: string;
  signature: string;
}

describe('watching a site', () => {
  it('two scheduled runs: the changed authorized script is pending again, drift, signed grouped alerts', async () => {
    const site = { app: 'window.app = 1;', tag: 'window.tag = 1;', csp: true };
    let policy = '';
    live.sites = await startFixtureSites({
      mainOnly: (o) => {
        policy = `default-src 'self'; script-src 'self' ${o.cdn} ${o.api}`;
        const page = (links: string, csp: () => boolean): FixtureResponse => {
          const response: FixtureResponse = {
            type: 'text/html',
            body: `<!doctype html><title>p</title><script src="/app.js"></script><script src="${o.cdn}/tag.js"></script>${links}`,
          };
          Object.defineProperty(response, 'headers', {
            get: () => (csp() ? { 'content-security-policy': policy } : {}),
          });
          return response;
        };
        return {
          '/': page('<a href="/b">b</a>', () => true),
          '/b': page('', () => site.csp),
          '/app.js': { type: 'text/javascript', body: () => site.app },
        };
      },
      extraRoutes: () => ({
        cdn: { '/tag.js': { type: 'text/javascript', body: () => site.tag } },
        api: { '/pixel.js': { type: 'text/javascript', body: 'window.pixel = 1;' } },
      }),
    });
    const { origins } = live.sites;

    const received: Delivery[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        received.push({ body, signature: String(req.headers['x-csp-generator-signature']) });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      let now = Date.now();
      live.server = await startTestServer({
        crawlHandler: (deps) =>
          loopbackCrawlHandler(deps, live.blobDir, { crawlOptions: { rerender: false } }),
        clock: () => now,
        scheduleEveryMs: 200,
      });
      const { client } = await registeredClient(live.server.url);
      const domain = await (
        await client.post('/api/domains', { name: 'Shop', url: `${origins.main}/` })
      ).json();
      const base = `/api/domains/${domain.id}`;

      // Alerts to the webhook only (no mail server here), every kind.
      const hook = await client.post(`${base}/alert-settings/webhooks`, {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      });
      expect(hook.status).toBe(201);
      const { secret } = await hook.json();
      const settings = await (await client.get(`${base}/alert-settings`)).json();
      await client.put(`${base}/alert-settings`, { kinds: settings.kinds, email: false, pendingDays: 7 });

      const scheduled = await client.put(`${base}/schedule`, {
        frequency: 'daily',
        time: '06:00',
        timeZone: 'UTC',
        crawlRequest: { maxPages: 5, crawlDelay: 0 },
      });
      expect(scheduled.status).toBe(200);
      const dueAt = Date.parse((await scheduled.json()).nextRunAt);
      const completed = (count: number) =>
        until(
          async () =>
            (await (await client.get(`${base}/analyses`)).json()) as {
              id: string;
              status: string;
              trigger: string;
            }[],
          (list) => list.length === count && list.every((a) => a.status === 'completed'),
          120_000,
        );

      // The first run, by the schedule.
      now = dueAt + 30_000;
      const [first] = await completed(1);
      expect(first).toMatchObject({ trigger: 'schedule' });

      // The merchant saves the served policy as the configuration and authorizes the site's own script.
      const saved = await client.post('/api/csp-configurations', {
        domainId: domain.id,
        name: 'Live',
        baseAnalysisId: first!.id,
        cspRules: { 'default-src': ["'self'"], 'script-src': ["'self'", origins.cdn, origins.api] },
      });
      expect(saved.status).toBe(201);
      const appKey = `${origins.main}/app.js`;
      const scripts = async () =>
        (await (await client.get(`${base}/scripts`)).json()) as { scripts: { key: string; state: string }[] };
      // The inventory takes the run in just after the analysis says completed.
      await until(scripts, (l) => l.scripts.some((s) => s.key === appKey), 20_000);
      const authorized = await client.post(`${base}/scripts/authorize`, {
        keys: [appKey],
        justification: 'Our storefront bundle',
      });
      expect(authorized.status).toBe(200);
      const before = received.length;

      // The site changes; the next day's run comes.
      site.app = 'window.app = 2; // release 2';
      site.tag = `var s = document.createElement('script'); s.src = '${origins.api}/pixel.js'; document.head.appendChild(s);`;
      site.csp = false;
      now = dueAt + DAY + 30_000;
      const runs = await completed(2);
      expect(runs.every((a) => a.trigger === 'schedule')).toBe(true);

      // The inventory (updated just after the analysis says completed): the authorized script's new content
      // is pending review again.
      const list = await until(
        scripts,
        (l) => l.scripts.some((s) => s.key === appKey && s.state === 'pending'),
        20_000,
      );
      expect(list.scripts.find((s) => s.key === appKey)).toMatchObject({ state: 'pending' });

      // The alerts arrive on the next ticks: one per kind for the run, each signed.
      const kindsOf = () =>
        received.slice(before).map((d) => (JSON.parse(d.body) as { alert: { kind: string } }).alert.kind);
      await until(
        async () => kindsOf(),
        (k) => ['script-added', 'script-changed', 'header-changed', 'drift'].every((x) => k.includes(x)),
        30_000,
      );
      const kinds = kindsOf();
      expect(kinds.filter((k) => k === 'script-changed')).toHaveLength(1);
      expect(kinds.filter((k) => k === 'header-changed')).toHaveLength(1);
      for (const d of received.slice(before)) {
        expect(verifyWebhookSignature(secret, d.body, d.signature)).toEqual({ valid: true });
        expect(verifyWebhookSignature(secret, `${d.body} `, d.signature).valid).toBe(false);
      }
      const byKind = new Map(
        received.slice(before).map((d) => {
          const { alert, text } = JSON.parse(d.body) as {
            alert: { kind: string; summary: string };
            text: string;
          };
          return [alert.kind, { summary: alert.summary, text }];
        }),
      );
      expect(byKind.get('script-changed')!.summary).toMatch(/^2 scripts changed content: /);
      expect(byKind.get('script-changed')!.summary).toContain(appKey);
      expect(byKind.get('script-added')!.summary).toBe(
        `1 new script: ${origins.api}/pixel.js (fourth party, loaded by ${origins.cdn}/tag.js)`,
      );
      expect(byKind.get('header-changed')!.summary).toBe('Content-Security-Policy removed on 1 page');
      expect(byKind.get('drift')!.summary).toMatch(
        /^The Content-Security-Policy served on \d+ pages? differs/,
      );
      // Slack's field, with the link to the analysis that found it.
      expect(byKind.get('drift')!.text).toContain(`<${live.server.url}/analysis/`);

      // The deliveries are listed as delivered.
      const { deliveries } = await (await client.get(`${base}/alert-deliveries`)).json();
      expect(
        deliveries.filter((d: { status: string }) => d.status === 'delivered').length,
      ).toBeGreaterThanOrEqual(4);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 300_000);
});
