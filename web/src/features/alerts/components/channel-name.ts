// What a delivery's target is called on screen: the owner's e-mail, a team member's, a webhook by its
// address, a webhook of the team's settings, or a webhook removed since (deliveries outlive the webhook they
// went to).
import type { AlertDelivery, Webhook } from '@csp/shared/schemas/alert-settings';

export function channelName(
  d: Pick<AlertDelivery, 'channel' | 'target' | 'viaTeam'>,
  webhooks: readonly Pick<Webhook, 'id' | 'url'>[],
  /** Team members' names by user id: the team's e-mail goes to members. */
  people?: ReadonlyMap<string, string>,
): string {
  if (d.channel === 'email') {
    if (d.target === 'owner') return "E-mail to the domain's owner";
    return `E-mail to ${people?.get(d.target) ?? 'a team member'}`;
  }
  const webhook = webhooks.find((w) => w.id === d.target);
  if (webhook) return webhook.url;
  return d.viaTeam ? "A webhook of the team's alert settings" : 'A webhook removed since';
}
