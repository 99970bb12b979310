// A domain's alerts (Monitoring): what alerts and where (GET/PUT alert-settings; webhooks added with a
// signing secret shown once, removed by id), the alerts raised (grouped) and their deliveries, and "Send
// test". The owner changes them; members of the owner's team read them; anyone else gets a 404.

import { randomBytes } from 'node:crypto';
import {
  ALERT_LIMITS,
  alertSettingsBodySchema,
  webhookCreateSchema,
} from '@csp/shared/schemas/alert-settings';
import { Hono } from 'hono';
import { attemptDelivery, raiseAndQueue, testAlertInput } from '../../alerts/deliver';
import { takeAttempt } from '../../auth/rate-limit';
import { seal } from '../../auth/secret-box';
import { BlockedTargetError, createTargetGuard } from '../../crawler/guard';
import { AppError, notFound } from '../../errors';
import { publicOrigin } from '../../http/public-origin';
import {
  addWebhook,
  getAlertSettings,
  listAlerts,
  listDeliveries,
  putAlertSettings,
  recordDeliveryAttempt,
  removeWebhook,
  toAlertSettings,
} from '../../store/alerts';
import { putContact } from '../../store/contacts';
import { newId } from '../../store/ids';
import { domainFor } from '../access';
import type { ApiEnv } from '../deps';
import { currentUser, requireUser } from '../middleware/session';
import { jsonBody } from '../validate';

/** The webhook's origin and the end of its address: https://hooks.slack.com/…/Xy3z. */
export function maskedWebhookUrl(url: string): string {
  const parsed = new URL(url);
  const rest = `${parsed.pathname}${parsed.search}`;
  return rest.length > 1 ? `${parsed.origin}/…${rest.slice(-4)}` : parsed.origin;
}

/** "Send test" per domain and hour: each one makes the product POST to an address the user chose. */
const TESTS_PER_HOUR = 10;

export const domainAlertRoutes = new Hono<ApiEnv>()
  .get('/:id/alert-settings', requireUser, async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'read');
    const settings = toAlertSettings(await getAlertSettings(c.var.deps.db, domain.id));
    if (domain.access === 'owner') return c.json(settings);
    // A webhook's address is often its credential (Slack's carry their token in the path): team members
    // see where it goes, not the address itself.
    return c.json({
      ...settings,
      webhooks: settings.webhooks.map((w) => ({ ...w, url: maskedWebhookUrl(w.url) })),
    });
  })

  .put('/:id/alert-settings', requireUser, jsonBody(alertSettingsBodySchema), async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'change');
    await putContact(c.var.deps.db, domain.userId, currentUser(c).email);
    return c.json(toAlertSettings(await putAlertSettings(c.var.deps.db, domain.id, c.req.valid('json'))));
  })

  .post('/:id/alert-settings/webhooks', requireUser, jsonBody(webhookCreateSchema), async (c) => {
    const { db, config, secrets } = c.var.deps;
    const domain = await domainFor(c, c.req.param('id'), 'change');
    const { url } = c.req.valid('json');
    // Checked now so a user hears at once why an address cannot be used; checked again at every send
    // (a name can later resolve elsewhere).
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
    const saved = await addWebhook(db, domain.id, {
      ...webhook,
      sealedSecret: seal(secrets.totpEncryptionKey, secret),
    });
    if (!saved)
      throw new AppError(
        409,
        `A domain can have ${ALERT_LIMITS.webhooksPerDomain} webhooks at most: remove one first`,
      );
    // The secret is shown this once: receivers verify signatures with it.
    return c.json({ webhook, secret }, 201);
  })

  .delete('/:id/alert-settings/webhooks/:webhookId', requireUser, async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'change');
    if (!(await removeWebhook(c.var.deps.db, domain.id, c.req.param('webhookId')))) throw notFound('Webhook');
    return c.body(null, 204);
  })

  .post('/:id/alerts/test', requireUser, async (c) => {
    const { db, config, secrets } = c.var.deps;
    const domain = await domainFor(c, c.req.param('id'), 'change');
    await putContact(db, domain.userId, currentUser(c).email);
    const allowed = await takeAttempt(db, {
      scope: 'alert-test',
      subject: domain.id,
      max: TESTS_PER_HOUR,
      windowSeconds: 3_600,
    });
    if (!allowed)
      throw new AppError(429, `At most ${TESTS_PER_HOUR} test alerts an hour per domain. Please try later.`);
    const deps = {
      db,
      config,
      secrets,
      log: c.var.log,
      publicUrl: publicOrigin(c.req.url, config.PUBLIC_URL),
    };
    const now = Date.now();
    const deliveries = await raiseAndQueue(db, testAlertInput(domain, now), now);
    if (deliveries.length === 0) {
      throw new AppError(400, 'Nothing to send to: turn on e-mail or add a webhook first');
    }
    // Sent at once, not at the next tick: the user is waiting for the answer.
    const results = await Promise.all(
      deliveries.map(async (d) => {
        const outcome = await attemptDelivery(deps, d, now);
        await recordDeliveryAttempt(db, d, outcome, now);
        return {
          channel: d.channel,
          target: d.target,
          delivered: outcome.delivered,
          status: outcome.status,
          error: outcome.delivered ? null : outcome.error,
        };
      }),
    );
    return c.json({ results });
  })

  .get('/:id/alerts', requireUser, async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'read');
    return c.json({ alerts: await listAlerts(c.var.deps.db, domain.id) });
  })

  .get('/:id/alert-deliveries', requireUser, async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'read');
    return c.json({ deliveries: await listDeliveries(c.var.deps.db, domain.id) });
  });
