// Whose alert settings a domain's alerts go by. A domain of a team (its owner's domains) follows the team's
// settings unless its owner turned "Use the team's alert settings" off for it; a team that never saved
// settings has none to follow. The settings that apply replace the others whole: a domain on its own
// settings alerts only its own channels, a domain following the team only the team's, never both. Why:
// one place to look tells the owner where an alert goes and what is turned off; adding both would make a
// kind turned off on one side still arrive through the other, and send the same alert twice to a Slack
// channel named on both.
import type { AlertKind, SUBSCRIBABLE_ALERT_KINDS } from './alert';

type SubscribableKind = (typeof SUBSCRIBABLE_ALERT_KINDS)[number];

/** The e-mail target of a domain's own settings: its owner's address (a team's names its members' ids). */
export const DOMAIN_OWNER_RECIPIENT = 'owner';

export interface DomainAlertSettingsInput<W> {
  kinds: readonly SubscribableKind[];
  email: boolean;
  pendingDays: number;
  webhooks: readonly W[];
  /** The domain's switch; absent (never set) is on. */
  useTeamSettings?: boolean | undefined;
}

export interface TeamAlertSettingsInput<W> {
  kinds: readonly SubscribableKind[];
  recipients: readonly string[];
  pendingDays: number;
  webhooks: readonly W[];
}

export interface EffectiveAlertSettings<W> {
  source: 'domain' | 'team';
  kinds: readonly SubscribableKind[];
  pendingDays: number;
  /** Who is e-mailed: DOMAIN_OWNER_RECIPIENT, or team members' user ids. */
  emailTo: readonly string[];
  webhooks: readonly W[];
}

/** Whether the domain follows its team: it is a team's domain whose team saved settings, and the switch is on. */
export function followsTeam(useTeamSettings: boolean | undefined, teamHasSettings: boolean): boolean {
  return teamHasSettings && useTeamSettings !== false;
}

/**
 * @param team the settings of the team whose domain this is, or null when it is no team's domain or the
 *   team never saved any.
 */
export function effectiveAlertSettings<W>(
  domain: DomainAlertSettingsInput<W>,
  team: TeamAlertSettingsInput<W> | null,
): EffectiveAlertSettings<W> {
  if (team && followsTeam(domain.useTeamSettings, true)) {
    return {
      source: 'team',
      kinds: team.kinds,
      pendingDays: team.pendingDays,
      emailTo: team.recipients,
      webhooks: team.webhooks,
    };
  }
  return {
    source: 'domain',
    kinds: domain.kinds,
    pendingDays: domain.pendingDays,
    emailTo: domain.email ? [DOMAIN_OWNER_RECIPIENT] : [],
    webhooks: domain.webhooks,
  };
}

/** Whether an alert of `kind` is sent under these settings ("Send test" always is). */
export function alertsFor(
  settings: Pick<EffectiveAlertSettings<unknown>, 'kinds'>,
  kind: AlertKind,
): boolean {
  return kind === 'test' || settings.kinds.some((k) => k === kind);
}
