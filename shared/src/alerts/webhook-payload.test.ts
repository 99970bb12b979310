import { describe, expect, it } from 'vitest';
import { type Alert, alertGroupKey } from './alert';
import { nextWebhookAttempt, WEBHOOK_RETRY_DELAYS_MS, webhookPayload } from './webhook-payload';

const alert: Alert = {
  id: 'al_1',
  kind: 'script-changed',
  domainId: 'd1',
  domainName: 'Shop <main> & co',
  cause: 'https://shop.example.com/app.js',
  summary: 'https://shop.example.com/app.js changed: sha384-A → sha384-B',
  link: 'https://csp.example.org/domains/d1?tab=scripts',
  count: 3,
  firstSeen: '2026-11-20',
  lastSeen: '2026-11-26',
};

describe('webhookPayload', () => {
  it('is a Slack message as it is, with the alert beside it for other receivers', () => {
    const payload = webhookPayload(alert);
    expect(payload.text).toBe(
      '*Script content changed* on Shop &lt;main&gt; &amp; co: https://shop.example.com/app.js changed: sha384-A → sha384-B (3 times since 2026-11-20) <https://csp.example.org/domains/d1?tab=scripts|Open in CSP Generator>',
    );
    expect(payload.alert).toEqual(alert);
    expect(JSON.parse(JSON.stringify(payload))).toEqual(payload);
  });

  it('a site cannot smuggle a link into the message', () => {
    const text = webhookPayload({ ...alert, count: 1, summary: '<https://evil.test|click>' }).text;
    expect(text).not.toContain('<https://evil.test');
    expect(text).toContain('&lt;https://evil.test|click&gt;');
  });
});

describe('retries', () => {
  it('waits longer after each failure, then gives up', () => {
    const at = 1_000_000;
    expect(WEBHOOK_RETRY_DELAYS_MS.map((_, i) => nextWebhookAttempt(i + 1, at)! - at)).toEqual([
      60_000, 300_000, 1_800_000, 7_200_000,
    ]);
    expect(nextWebhookAttempt(WEBHOOK_RETRY_DELAYS_MS.length + 1, at)).toBeNull();
  });
});

describe('alertGroupKey', () => {
  it('groups by domain, kind and cause only', () => {
    expect(alertGroupKey(alert)).toBe(alertGroupKey({ ...alert, id: 'al_2', count: 9 } as Alert));
    expect(alertGroupKey(alert)).not.toBe(alertGroupKey({ ...alert, kind: 'script-added' }));
  });
});
