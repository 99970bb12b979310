// Teams (spec sections 2 Team tab, 3, 6, 7): create one, list its members and pending invitations, invite
// by e-mail (owner only), revoke, leave or remove, delete; and the invited person's side at /invite/{token}.
// Someone else's team or invitation is a 404; a member asking for an owner's action gets a 403.
import {
  INVITATION_PROBLEMS,
  type Invitation,
  type InvitationPreview,
  type InvitationSent,
  invitationCreateSchema,
  TEAM_LIMITS,
  type Team,
  teamCreateSchema,
} from '@csp/shared/schemas/team';
import { type Context, Hono } from 'hono';
import { recordAchievementEvent } from '../../achievements/record';
import { type RateLimit, refundAttempts, takeAttempts } from '../../auth/rate-limit';
import type { Config } from '../../config';
import { AppError, notFound } from '../../errors';
import { publicOrigin } from '../../http/public-origin';
import { errorFields } from '../../logger';
import { invitationMail } from '../../mail/invitation-mail';
import { sendMail } from '../../mail/mailer';
import { dropTeamAlertRecipient } from '../../store/team-alerts';
import {
  createInvitation,
  getInvitation,
  getInvitationByToken,
  INVITATION_RATE_SCOPES,
  type InvitationRecord,
  invitationProblem,
  listTeamInvitations,
  revokeInvitation,
} from '../../store/team-invitations';
import {
  ALREADY_IN_TEAM,
  acceptInvitation,
  createTeam,
  deleteTeam,
  getTeam,
  listTeamMembers,
  removeMember,
} from '../../store/teams';
import { getUser, updateUserFields } from '../../store/users';
import type { ApiEnv } from '../deps';
import { currentUser, requireUser } from '../middleware/session';
import { jsonBody } from '../validate';

const OWNER_ONLY = 'Only the team owner can do this';
/** Tokens are 32 random bytes in base64url; anything else is not one of ours. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The signed-in user's team, or null (also when it was deleted under them). */
async function myTeam(c: Context<ApiEnv>): Promise<Team | null> {
  const user = currentUser(c);
  return user.teamId ? getTeam(c.var.deps.db, user.teamId) : null;
}

/** The team of the path, if it is the user's own (404 otherwise), and with `owner` only for its owner. */
export async function pathTeam(c: Context<ApiEnv>, need: 'member' | 'owner'): Promise<Team> {
  const team = await myTeam(c);
  if (!team || team.id !== c.req.param('teamId')) throw notFound('Team');
  if (need === 'owner' && team.ownerId !== currentUser(c).id) throw new AppError(403, OWNER_ONLY);
  return team;
}

const inviteLink = (c: Context<ApiEnv>, token: string) =>
  `${publicOrigin(c.req.url, c.var.deps.config.PUBLIC_URL)}/invite/${token}`;

const isExpired = (i: InvitationRecord, now = new Date().toISOString()) => i.expiresAt <= now;

function toInvitation(c: Context<ApiEnv>, i: InvitationRecord, withLink: boolean): Invitation {
  return {
    id: i.id,
    teamId: i.teamId,
    email: i.email,
    role: i.role,
    createdAt: i.createdAt,
    expiresAt: i.expiresAt,
    expired: isExpired(i),
    ...(withLink ? { link: inviteLink(c, i.token) } : {}),
  };
}

function displayName(u: { firstName: string | null; lastName: string | null; username: string }): string {
  return [u.firstName, u.lastName].filter(Boolean).join(' ') || u.username;
}

async function mailInvitation(
  c: Context<ApiEnv>,
  team: Team,
  invitation: InvitationRecord,
  link: string,
): Promise<boolean> {
  try {
    return await sendMail(
      c.var.deps.config,
      invitationMail({ to: invitation.email, teamName: team.name, link, expiresAt: invitation.expiresAt }),
    );
  } catch (err) {
    // The invitation stands; the owner copies its link instead.
    c.var.log.warn('invitation e-mail not sent', { invitationId: invitation.id, ...errorFields(err) });
    return false;
  }
}

const DAY_SECONDS = 24 * 60 * 60;

/**
 * Invitations sent per UTC day, by the user and by the team: counters of sends, so a revoked invitation, or a
 * team deleted and made again, gives nothing back (the 50-pending cap alone came back either way).
 */
const invitationLimits = (config: Config, userId: string, teamId: string): RateLimit[] => [
  {
    scope: INVITATION_RATE_SCOPES.user,
    subject: userId,
    max: config.INVITATIONS_PER_USER_PER_DAY,
    windowSeconds: DAY_SECONDS,
  },
  {
    scope: INVITATION_RATE_SCOPES.team,
    subject: teamId,
    max: config.INVITATIONS_PER_TEAM_PER_DAY,
    windowSeconds: DAY_SECONDS,
  },
];

function tooManyInvitations(config: Config, refused: RateLimit): string {
  return refused.scope === INVITATION_RATE_SCOPES.user
    ? `You can send at most ${config.INVITATIONS_PER_USER_PER_DAY} invitations a day. Please try again after midnight UTC.`
    : `A team can send at most ${config.INVITATIONS_PER_TEAM_PER_DAY} invitations a day. Please try again after midnight UTC.`;
}

/** /api/user/team: the signed-in user's team, or null. */
export const myTeamRoutes = new Hono<ApiEnv>().get('/', requireUser, async (c) => c.json(await myTeam(c)));

/** /api/teams: the team, its members and invitations. The session check is per route (see analyses). */
export const teamRoutes = new Hono<ApiEnv>()
  .post('/', requireUser, jsonBody(teamCreateSchema), async (c) => {
    const { db } = c.var.deps;
    const user = currentUser(c);
    const input = c.req.valid('json');
    if (user.teamId) {
      if (await getTeam(db, user.teamId)) throw new AppError(409, ALREADY_IN_TEAM);
      await updateUserFields(db, user.id, { teamId: null }); // its team is gone
    }
    const team = await createTeam(db, user, input);
    c.var.log.info('team created', { teamId: team.id, userId: user.id });
    await recordAchievementEvent(db, c.var.log, user.id, { add: { teamsCreated: 1 } });
    return c.json(team, 201);
  })

  .get('/members', requireUser, async (c) => {
    const team = await myTeam(c);
    return c.json(team ? await listTeamMembers(c.var.deps.db, team) : []);
  })

  .get('/invitations', requireUser, async (c) => {
    const team = await myTeam(c);
    if (!team) return c.json([]);
    const isOwner = team.ownerId === currentUser(c).id;
    const pending = (await listTeamInvitations(c.var.deps.db, team.id)).filter((i) => i.status === 'pending');
    return c.json(pending.map((i) => toInvitation(c, i, isOwner)));
  })

  .post('/:teamId/invitations', requireUser, jsonBody(invitationCreateSchema), async (c) => {
    const { db } = c.var.deps;
    const team = await pathTeam(c, 'owner');
    const input = c.req.valid('json');
    const [members, invitations] = await Promise.all([
      listTeamMembers(db, team),
      listTeamInvitations(db, team.id),
    ]);
    if (members.some((m) => m.email?.toLowerCase() === input.email)) {
      throw new AppError(409, 'That person is already a member of this team');
    }
    const open = invitations.filter((i) => i.status === 'pending' && !isExpired(i));
    if (open.some((i) => i.email.toLowerCase() === input.email)) {
      throw new AppError(
        409,
        'An invitation to that email is already pending: copy its link or revoke it first',
      );
    }
    if (team.memberCount >= team.maxMembers) throw new AppError(409, INVITATION_PROBLEMS.full);
    if (open.length >= TEAM_LIMITS.pendingInvitationsMax) {
      throw new AppError(
        409,
        `A team can have ${TEAM_LIMITS.pendingInvitationsMax} pending invitations at most: revoke one first`,
      );
    }
    // Taken atomically (conditional counters), so parallel invitations cannot pass the limits either.
    const limits = invitationLimits(c.var.deps.config, currentUser(c).id, team.id);
    const refused = await takeAttempts(db, limits);
    if (refused) {
      c.var.log.warn('invitation refused: daily limit', {
        teamId: team.id,
        userId: currentUser(c).id,
        limit: refused.scope,
      });
      throw new AppError(429, tooManyInvitations(c.var.deps.config, refused));
    }
    const invitation = await createInvitation(db, {
      teamId: team.id,
      email: input.email,
      role: input.role,
      invitedBy: currentUser(c).id,
    }).catch(async (err) => {
      await refundAttempts(db, limits); // nothing was sent
      throw err;
    });
    const link = inviteLink(c, invitation.token);
    const emailSent = await mailInvitation(c, team, invitation, link);
    c.var.log.info('team invitation created', { teamId: team.id, invitationId: invitation.id, emailSent });
    const body: InvitationSent = { ...toInvitation(c, invitation, true), link, emailSent };
    return c.json(body, 201);
  })

  .delete('/:teamId/invitations/:id', requireUser, async (c) => {
    const team = await pathTeam(c, 'owner');
    const invitation = await getInvitation(c.var.deps.db, c.req.param('id'));
    if (!invitation || invitation.teamId !== team.id) throw notFound('Invitation');
    if (!(await revokeInvitation(c.var.deps.db, invitation.id))) {
      throw new AppError(409, 'This invitation is no longer pending');
    }
    return c.json({ success: true });
  })

  .delete('/:teamId/members/:userId', requireUser, async (c) => {
    const { db } = c.var.deps;
    const user = currentUser(c);
    const userId = c.req.param('userId');
    const leaving = userId === user.id;
    const team = await pathTeam(c, leaving ? 'member' : 'owner');
    if (userId === team.ownerId) {
      throw new AppError(409, 'The owner cannot leave the team: delete the team instead');
    }
    const member = leaving ? user : await getUser(db, userId);
    if (!member || member.teamId !== team.id || !(await removeMember(db, team.id, member.id))) {
      throw notFound('Member');
    }
    // Out of the team, out of its alert e-mails (a delivery already queued checks again when it is sent).
    await dropTeamAlertRecipient(db, team, member.id);
    c.var.log.info(leaving ? 'member left team' : 'member removed from team', {
      teamId: team.id,
      userId: member.id,
    });
    return c.json({ success: true });
  })

  .delete('/:teamId', requireUser, async (c) => {
    const team = await pathTeam(c, 'owner');
    await deleteTeam(c.var.deps.db, team);
    c.var.log.info('team deleted', { teamId: team.id });
    return c.json({ success: true });
  });

/** /api/invitations/:token: the invited person's side. */
export const invitationRoutes = new Hono<ApiEnv>()
  .get('/:token', requireUser, async (c) => {
    const { db } = c.var.deps;
    const token = c.req.param('token');
    const invitation = TOKEN.test(token) ? await getInvitationByToken(db, token) : null;
    if (!invitation) throw notFound('Invitation');
    const [team, inviter] = await Promise.all([
      getTeam(db, invitation.teamId),
      getUser(db, invitation.invitedBy),
    ]);
    const body: InvitationPreview = {
      teamName: team?.name ?? '',
      invitedBy: inviter ? displayName(inviter) : '',
      email: invitation.email,
      expiresAt: invitation.expiresAt,
      problem: invitationProblem(invitation, team, currentUser(c)),
    };
    return c.json(body);
  })

  .post('/:token/accept', requireUser, async (c) => {
    const { db } = c.var.deps;
    const user = currentUser(c);
    const token = c.req.param('token');
    const invitation = TOKEN.test(token) ? await getInvitationByToken(db, token) : null;
    if (!invitation) throw notFound('Invitation');
    const team = await getTeam(db, invitation.teamId);
    // A teamId whose team is gone is no membership.
    const member = user.teamId && (await getTeam(db, user.teamId)) ? user : { ...user, teamId: null };
    const problem = invitationProblem(invitation, team, member);
    if (problem) {
      c.var.log.warn('invitation refused', { invitationId: invitation.id, userId: user.id, problem });
      throw new AppError(problem === INVITATION_PROBLEMS.wrongEmail ? 403 : 409, problem);
    }
    if (user.teamId && !member.teamId) await updateUserFields(db, user.id, { teamId: null });
    await acceptInvitation(db, invitation, user);
    c.var.log.info('invitation accepted', { teamId: invitation.teamId, userId: user.id });
    if (team) await recordAchievementEvent(db, c.var.log, team.ownerId, { add: { membersJoined: 1 } });
    return c.json(await getTeam(db, invitation.teamId));
  });
