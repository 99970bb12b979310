// The alert e-mail to a domain's owner. Summaries and causes carry what a crawled site served (script URLs,
// header values): each is one line, cut, under our own words.
import { ALERT_KIND_TITLES, type Alert } from '@csp/shared/alerts/alert';
import type { Mail } from '../mail/mailer';
import { oneLineForMail } from '../mail/one-line';

const NAME_MAX = 80;
const SUMMARY_MAX = 300;

export function alertMail(to: string, alert: Alert, viaTeam = false): Mail {
  const title = ALERT_KIND_TITLES[alert.kind];
  const domain = oneLineForMail(alert.domainName, NAME_MAX);
  const times =
    alert.count > 1 ? `Seen ${alert.count} times since ${alert.firstSeen}.` : `Seen at ${alert.lastSeen}.`;
  return {
    to,
    subject: `CSP Generator: ${title} on ${domain}`,
    text: [
      `${title} on ${domain}.`,
      '',
      `    ${oneLineForMail(alert.summary, SUMMARY_MAX)}`,
      '',
      times,
      '',
      'What it means and what to do:',
      alert.link,
      '',
      viaTeam
        ? "You receive this because your team's alert settings name you (the Team page, Alerts)."
        : "You receive this because alerts are on for this domain (the domain's Monitoring tab).",
    ].join('\n'),
  };
}
