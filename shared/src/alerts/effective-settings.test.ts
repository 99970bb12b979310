import { describe, expect, it } from 'vitest';
import { alertsFor, DOMAIN_OWNER_RECIPIENT, effectiveAlertSettings, followsTeam } from './effective-settings';

const domain = {
  kinds: ['drift'] as const,
  email: true,
  pendingDays: 3,
  webhooks: [{ id: 'domain-hook' }],
};
const team = {
  kinds: ['script-added', 'script-changed'] as const,
  recipients: ['u-owner', 'u-member'],
  pendingDays: 10,
  webhooks: [{ id: 'team-hook' }],
};

describe('effective alert settings', () => {
  it("a team's domain follows the team's settings by default: its kinds, days, members and webhooks only", () => {
    expect(effectiveAlertSettings(domain, team)).toEqual({
      source: 'team',
      kinds: ['script-added', 'script-changed'],
      pendingDays: 10,
      emailTo: ['u-owner', 'u-member'],
      webhooks: [{ id: 'team-hook' }],
    });
    expect(effectiveAlertSettings({ ...domain, useTeamSettings: true }, team).source).toBe('team');
  });

  it('a domain with the switch off goes by its own settings whole: nothing of the team is added', () => {
    expect(effectiveAlertSettings({ ...domain, useTeamSettings: false }, team)).toEqual({
      source: 'domain',
      kinds: ['drift'],
      pendingDays: 3,
      emailTo: [DOMAIN_OWNER_RECIPIENT],
      webhooks: [{ id: 'domain-hook' }],
    });
  });

  it('no team, or a team that never saved settings: the domain keeps its own, whatever the switch says', () => {
    expect(effectiveAlertSettings(domain, null).source).toBe('domain');
    expect(effectiveAlertSettings({ ...domain, useTeamSettings: true }, null).webhooks).toEqual([
      { id: 'domain-hook' },
    ]);
    expect(followsTeam(undefined, false)).toBe(false);
    expect(followsTeam(undefined, true)).toBe(true);
    expect(followsTeam(false, true)).toBe(false);
  });

  it("the domain's e-mail off mails nobody; a team with no recipients mails nobody", () => {
    expect(effectiveAlertSettings({ ...domain, email: false }, null).emailTo).toEqual([]);
    expect(effectiveAlertSettings(domain, { ...team, recipients: [] }).emailTo).toEqual([]);
  });

  it('sends a kind the settings name, and the test alert always', () => {
    const s = effectiveAlertSettings(domain, team);
    expect(alertsFor(s, 'script-added')).toBe(true);
    expect(alertsFor(s, 'drift')).toBe(false);
    expect(alertsFor(s, 'test')).toBe(true);
  });
});
