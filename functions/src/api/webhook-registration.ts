// A webhook as a domain or a team adds it: the address checked at once (a user hears now why it cannot be
// used; it is checked again at every send, as a name can later resolve elsewhere), a signing secret made,
// shown this once and kept sealed.
import { randomBytes } from 'node:crypto';
import type { Webhook } from '@csp/shared/schemas/alert-settings';
import { ALERT_LIMITS } from '@csp/shared/schemas/alert-settings';
import type { Context } from 'hono';
import { seal } from '../auth/secret-box';
import { BlockedTargetError, createTargetGuard } from '../crawler/guard';
import { AppError } from '../errors';
import type { StoredWebhook } from '../store/alerts';
import { newId } from '../store/ids';
import type { ApiEnv } from './deps';

export interface NewWebhook {
  /** What the answer shows. */
  webhook: Webhook;
  /** What the table keeps. */
  stored: StoredWebhook;
  /** The signing secret, for the answer only. */
  secret: string;
}

export async function newWebhook(c: Context<ApiEnv>, url: string): Promise<NewWebhook> {
  const { config, secrets } = c.var.deps;
  const target = new URL(url);
  try {
    await createTargetGuard({ allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS }).resolve(target.hostname);
  } catch (error) {
    if (error instanceof BlockedTargetError)
      throw new AppError(400, `This address cannot receive webhooks: ${error.host} (${error.reason})`);
    throw error;
  }
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const webhook = {
    id: newId(),
    url: target.href,
    createdAt: new Date().toISOString(),
    secretHint: secret.slice(-4),
  };
  return { webhook, stored: { ...webhook, sealedSecret: seal(secrets.totpEncryptionKey, secret) }, secret };
}

/** Refused once a domain or a team has as many webhooks as it may. */
export const tooManyWebhooks = (holder: 'domain' | 'team') =>
  new AppError(
    409,
    `A ${holder} can have ${ALERT_LIMITS.webhooksPerDomain} webhooks at most: remove one first`,
  );

/** The webhook's origin and the end of its address: https://hooks.slack.com/…/Xy3z. */
export function maskedWebhookUrl(url: string): string {
  const parsed = new URL(url);
  const rest = `${parsed.pathname}${parsed.search}`;
  return rest.length > 1 ? `${parsed.origin}/…${rest.slice(-4)}` : parsed.origin;
}

/**
 * A webhook's address is often its credential (Slack's carry their token in the path): who may not change
 * the settings sees where it goes, not the address itself.
 */
export const maskedWebhooks = <W extends { url: string }>(webhooks: readonly W[]): W[] =>
  webhooks.map((w) => ({ ...w, url: maskedWebhookUrl(w.url) }));
