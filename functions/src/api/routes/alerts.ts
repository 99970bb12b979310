// A domain's alerts (Monitoring): what alerts and where (GET/PUT alert-settings; webhooks added with a
// signing secret shown once, removed by id), whether a team's domain uses the team's settings (PUT
// alert-settings/source), the alerts raised (grouped) and their deliveries, and "Send test". The owner
// changes them; members of the owner's team read them; anyone else gets a 404.

import { followsTeam } from '@csp/shared/alerts/effective-settings';
import { alertSettingsBodySchema, webhookCreateSchema } from '@csp/shared/schemas/alert-settings';
import {
  type AlertSettingsChoice,
  alertSettingsSourceBodySchema,
} from '@csp/shared/schemas/team-alert-settings';
import { type Context, Hono } from 'hono';
import { alertRoutingOf, attemptDelivery, raiseAndQueue, testAlertInput } from '../../alerts/deliver';
import { takeAttempt } from '../../auth/rate-limit';
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
  type SettingsRecord,
  setUseTeamSettings,
  toAlertSettings,
} from '../../store/alerts';
import { putContact } from '../../store/contacts';
import { getTeamAlertSettings } from '../../store/team-alerts';
import { getTeam } from '../../store/teams';
import { domainFor, type SeenDomain } from '../access';
import type { ApiEnv } from '../deps';
import { currentUser, requireUser } from '../middleware/session';
import { jsonBody } from '../validate';
import { maskedWebhooks, newWebhook, tooManyWebhooks } from '../webhook-registration';

/** "Send test" per domain and hour: each one makes the product POST to an address the user chose. */
export const TESTS_PER_HOUR = 10;

/**
 * The domain's switch and whose settings apply. A team's domains are its owner's: the owner and the members
 * who see this domain are all in that team, so it is the viewer's team when its owner owns the domain.
 */
async function settingsChoice(
  c: Context<ApiEnv>,
  domain: SeenDomain,
  record: SettingsRecord,
): Promise<AlertSettingsChoice> {
  const { db } = c.var.deps;
  const teamId = currentUser(c).teamId;
  const team = teamId ? await getTeam(db, teamId) : null;
  const domainTeam = team && team.ownerId === domain.userId ? team : null;
  const saved = domainTeam ? (await getTeamAlertSettings(db, domainTeam)).savedAt !== undefined : false;
  return {
    useTeamSettings: record.useTeamSettings !== false,
    applies: followsTeam(record.useTeamSettings, saved) ? 'team' : 'domain',
    team: domainTeam ? { id: domainTeam.id, name: domainTeam.name, saved } : null,
  };
}

/** The answer of the settings routes: the domain's own settings and the choice beside them. */
async function settingsAnswer(c: Context<ApiEnv>, domain: SeenDomain, record: SettingsRecord) {
  const settings = toAlertSettings(record);
  const choice = await settingsChoice(c, domain, record);
  if (domain.access === 'owner') return { ...settings, ...choice };
  return { ...settings, webhooks: maskedWebhooks(settings.webhooks), ...choice };
}

export const domainAlertRoutes = new Hono<ApiEnv>()
  .get('/:id/alert-settings', requireUser, async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'read');
    return c.json(await settingsAnswer(c, domain, await getAlertSettings(c.var.deps.db, domain.id)));
  })

  .put('/:id/alert-settings', requireUser, jsonBody(alertSettingsBodySchema), async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'change');
    await putContact(c.var.deps.db, domain.userId, currentUser(c).email);
    const saved = await putAlertSettings(c.var.deps.db, domain.id, c.req.valid('json'));
    return c.json(await settingsAnswer(c, domain, saved));
  })

  .put('/:id/alert-settings/source', requireUser, jsonBody(alertSettingsSourceBodySchema), async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'change');
    const saved = await setUseTeamSettings(c.var.deps.db, domain.id, c.req.valid('json').useTeamSettings);
    return c.json(await settingsAnswer(c, domain, saved));
  })

  .post('/:id/alert-settings/webhooks', requireUser, jsonBody(webhookCreateSchema), async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'change');
    const { webhook, stored, secret } = await newWebhook(c, c.req.valid('json').url);
    if (!(await addWebhook(c.var.deps.db, domain.id, stored))) throw tooManyWebhooks('domain');
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
    // To what this domain's alerts go now: its own channels, or its team's.
    const routing = await alertRoutingOf(db, domain);
    const deliveries = await raiseAndQueue(db, testAlertInput(domain, now), now, routing);
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
