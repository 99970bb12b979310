// What a delivery's target is called on screen: the owner's e-mail, a webhook by its address, or a webhook
// removed since (deliveries outlive the webhook they went to).
import type { AlertDelivery, Webhook } from '@csp/shared/schemas/alert-settings';

export function channelName(
  d: Pick<AlertDelivery, 'channel' | 'target'>,
  webhooks: readonly Pick<Webhook, 'id' | 'url'>[],
): string {
  if (d.channel === 'email') return "E-mail to the domain's owner";
  return webhooks.find((w) => w.id === d.target)?.url ?? 'A webhook removed since';
}
