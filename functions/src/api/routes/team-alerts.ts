// /api/teams/:teamId/alerts: a team's alert settings, once for every domain of the team (its owner's
// domains) that uses them: what alerts, the members e-mailed, webhooks added (secret shown once) and removed,
// and "Send test". The owner changes them; a member reads them (webhook addresses masked) and gets a 403 for
// a change; anyone else a 404 (teams.ts pathTeam).
import { ALERT_KIND_TITLES, deliveredAlert } from '@csp/shared/alerts/alert';
import { webhookCreateSchema } from '@csp/shared/schemas/alert-settings';
import { teamAlertSettingsBodySchema } from '@csp/shared/schemas/team-alert-settings';
import { Hono } from 'hono';
import { type AlertTarget, sendAlertTo } from '../../alerts/deliver';
import { takeAttempt } from '../../auth/rate-limit';
import { AppError, notFound } from '../../errors';
import { publicOrigin } from '../../http/public-origin';
import { getContactEmail, putContact } from '../../store/contacts';
import {
  addTeamWebhook,
  getTeamAlertSettings,
  putTeamAlertSettings,
  removeTeamWebhook,
  type TeamSettingsRecord,
  toTeamAlertSettings,
} from '../../store/team-alerts';
import { listTeamMembers } from '../../store/teams';
import type { ApiEnv } from '../deps';
import { currentUser, requireUser } from '../middleware/session';
import { jsonBody } from '../validate';
import { maskedWebhooks, newWebhook, tooManyWebhooks } from '../webhook-registration';
import { TESTS_PER_HOUR } from './alerts';
import { pathTeam } from './teams';

/** Where the team's alerts are set: the test alert links there. */
const TEAM_SCREEN = '/settings?tab=team';

function answer(record: TeamSettingsRecord, isOwner: boolean) {
  const settings = toTeamAlertSettings(record);
  return isOwner ? settings : { ...settings, webhooks: maskedWebhooks(settings.webhooks) };
}

export const teamAlertRoutes = new Hono<ApiEnv>()
  .get('/:teamId/alerts', requireUser, async (c) => {
    const team = await pathTeam(c, 'member');
    const isOwner = team.ownerId === currentUser(c).id;
    return c.json(answer(await getTeamAlertSettings(c.var.deps.db, team), isOwner));
  })

  .put('/:teamId/alerts', requireUser, jsonBody(teamAlertSettingsBodySchema), async (c) => {
    const { db } = c.var.deps;
    const team = await pathTeam(c, 'owner');
    const body = c.req.valid('json');
    const members = new Map((await listTeamMembers(db, team)).map((m) => [m.id, m]));
    const strangers = body.recipients.filter((id) => !members.has(id));
    if (strangers.length > 0) {
      throw new AppError(400, `Only members of the team can receive its alerts: ${strangers.join(', ')}`);
    }
    // The sender reads addresses from the contact items (never the user items): written for each recipient.
    await Promise.all(body.recipients.map((id) => putContact(db, id, members.get(id)?.email)));
    return c.json(answer(await putTeamAlertSettings(db, team, body), true));
  })

  .post('/:teamId/alerts/webhooks', requireUser, jsonBody(webhookCreateSchema), async (c) => {
    const team = await pathTeam(c, 'owner');
    const { webhook, stored, secret } = await newWebhook(c, c.req.valid('json').url);
    if (!(await addTeamWebhook(c.var.deps.db, team, stored))) throw tooManyWebhooks('team');
    return c.json({ webhook, secret }, 201);
  })

  .delete('/:teamId/alerts/webhooks/:webhookId', requireUser, async (c) => {
    const team = await pathTeam(c, 'owner');
    if (!(await removeTeamWebhook(c.var.deps.db, team, c.req.param('webhookId')))) throw notFound('Webhook');
    return c.body(null, 204);
  })

  // Sent at once to every member and webhook the team's settings name; nothing is queued (a team's
  // deliveries are listed with each domain's alerts, and this alert is no domain's).
  .post('/:teamId/alerts/test', requireUser, async (c) => {
    const { db, config, secrets } = c.var.deps;
    const team = await pathTeam(c, 'owner');
    const settings = await getTeamAlertSettings(db, team);
    if (settings.recipients.length === 0 && settings.webhooks.length === 0) {
      throw new AppError(400, 'Nothing to send to: choose a member to e-mail or add a webhook first');
    }
    const allowed = await takeAttempt(db, {
      scope: 'alert-test',
      subject: `team:${team.id}`,
      max: TESTS_PER_HOUR,
      windowSeconds: 3_600,
    });
    if (!allowed)
      throw new AppError(429, `At most ${TESTS_PER_HOUR} test alerts an hour per team. Please try later.`);
    const deps = {
      db,
      config,
      secrets,
      log: c.var.log,
      publicUrl: publicOrigin(c.req.url, config.PUBLIC_URL),
    };
    const now = Date.now();
    const at = new Date(now).toISOString();
    const alert = deliveredAlert(
      {
        id: `test-${now}`,
        kind: 'test',
        domainId: team.id,
        domainName: team.name,
        cause: `test ${now}`,
        summary: `${ALERT_KIND_TITLES.test}: the alerts of team ${team.name} reach you.`,
        path: TEAM_SCREEN,
        count: 1,
        firstSeen: at,
        lastSeen: at,
      },
      deps.publicUrl,
    );
    const targets: { target: string; to: AlertTarget | string }[] = [
      ...(await Promise.all(
        settings.recipients.map(async (id) => {
          const address = await getContactEmail(db, id);
          return {
            target: id,
            to: address
              ? ({ channel: 'email', address, viaTeam: true } as const)
              : 'The recipient has no e-mail address',
          };
        }),
      )),
      ...settings.webhooks.map((webhook) => ({
        target: webhook.id,
        to: { channel: 'webhook', webhook } as const,
      })),
    ];
    const results = await Promise.all(
      targets.map(async ({ target, to }) => {
        const channel = typeof to === 'string' ? ('email' as const) : to.channel;
        if (typeof to === 'string') return { channel, target, delivered: false, status: null, error: to };
        const outcome = await sendAlertTo(deps, alert, to, null);
        return {
          channel,
          target,
          delivered: outcome.delivered,
          status: outcome.status,
          error: outcome.delivered ? null : outcome.error,
        };
      }),
    );
    return c.json({ results });
  });
