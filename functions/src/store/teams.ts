// Teams, their members and invitations. Every change of membership is one transaction that checks what
// must hold (the user is in no team, the team has room, the invitation is pending and unexpired), so two
// parallel accepts cannot overfill a team and one invitation cannot be used twice.
import { randomBytes } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { INVITATION_PROBLEMS, TEAM_LIMITS, type Team, type TeamMember } from '@csp/shared/schemas/team';
import { AppError } from '../errors';
import { batchDelete } from './batch';
import { type Db, failedConditionIndexes, isConditionFailure, nowIso } from './db';
import { newId } from './ids';
import {
  invitationIndexes,
  invitationKey,
  invitationTokenKey,
  ratePartition,
  teamInvitationsPartition,
  teamKey,
  teamMemberIndexes,
  teamMembersPartition,
  teamSlugGuardKey,
  userKey,
} from './keys';
import { queryPartition, queryTable } from './query';
import type { UserRecord } from './users';

/** The counters of invitations sent per day (auth/rate-limit.ts), per user and per team. */
export const INVITATION_RATE_SCOPES = { user: 'invite-user', team: 'invite-team' } as const;

export const SLUG_TAKEN = 'That team slug is taken';
export const ALREADY_IN_TEAM = 'You already belong to a team';

export interface InvitationRecord {
  id: string;
  teamId: string;
  email: string;
  role: string;
  token: string;
  status: 'pending' | 'accepted' | 'revoked';
  invitedBy: string;
  createdAt: string;
  /** ISO time (a string, so the table's TTL attribute never removes it: an expired link must say so). */
  expiresAt: string;
  acceptedBy?: string;
  acceptedAt?: string;
}

const stripKeys = (item: Record<string, unknown>) => {
  const { pk: _a, sk: _b, gsi2pk: _c, gsi2sk: _d, ...rest } = item;
  return rest;
};

/** The user item joining a team: teamId, when, and the team's member index. No other team before. */
function joinUpdate(db: Db, userId: string, teamId: string, now: string) {
  return {
    Update: {
      TableName: db.table,
      Key: userKey(userId),
      UpdateExpression:
        'SET teamId = :team, teamJoinedAt = :now, updatedAt = :now, gsi2pk = :gpk, gsi2sk = :gsk',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(teamId) OR teamId = :null)',
      ExpressionAttributeValues: {
        ':team': teamId,
        ':now': now,
        ':null': null,
        ':gpk': teamMemberIndexes(teamId, now, userId).gsi2pk,
        ':gsk': teamMemberIndexes(teamId, now, userId).gsi2sk,
      },
    },
  };
}

/** The user item leaving its team (only if it is still in that team). */
function leaveUpdate(db: Db, userId: string, teamId: string) {
  return {
    Update: {
      TableName: db.table,
      Key: userKey(userId),
      UpdateExpression: 'SET teamId = :null, updatedAt = :now REMOVE teamJoinedAt, gsi2pk, gsi2sk',
      ConditionExpression: 'teamId = :team',
      ExpressionAttributeValues: { ':team': teamId, ':null': null, ':now': nowIso() },
    },
  };
}

export async function createTeam(
  db: Db,
  owner: UserRecord,
  input: { name: string; slug: string; description: string; maxMembers: number },
): Promise<Team> {
  const now = nowIso();
  const team: Team = {
    id: newId(),
    name: input.name,
    slug: input.slug,
    description: input.description,
    ownerId: owner.id,
    maxMembers: input.maxMembers,
    memberCount: 1,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: db.table,
              Item: { ...teamKey(team.id), ...team },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: db.table,
              Item: { ...teamSlugGuardKey(team.slug), teamId: team.id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          joinUpdate(db, owner.id, team.id, now),
        ],
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    if (failedConditionIndexes(err).includes(2)) throw new AppError(409, ALREADY_IN_TEAM);
    throw new AppError(409, SLUG_TAKEN);
  }
  return team;
}

export async function getTeam(db: Db, id: string): Promise<Team | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: teamKey(id) }));
  return res.Item ? (stripKeys(res.Item) as unknown as Team) : null;
}

/** The members, owner first, then in the order they joined. */
export async function listTeamMembers(db: Db, team: Team): Promise<TeamMember[]> {
  const items = await queryPartition(db, { index: 'gsi2', partition: teamMembersPartition(team.id) });
  const members = items.map((u): TeamMember => {
    const role = u.id === team.ownerId ? 'owner' : 'member';
    return {
      id: u.id as string,
      username: u.username as string,
      firstName: (u.firstName as string | null) ?? null,
      lastName: (u.lastName as string | null) ?? null,
      email: (u.email as string | null) ?? null,
      role,
      createdAt: u.createdAt as string,
      joinedAt: (u.teamJoinedAt as string | undefined) ?? (u.createdAt as string),
    };
  });
  return members.sort((a, b) => Number(b.role === 'owner') - Number(a.role === 'owner'));
}

export async function listTeamInvitations(db: Db, teamId: string): Promise<InvitationRecord[]> {
  const items = await queryPartition(db, {
    index: 'gsi2',
    partition: teamInvitationsPartition(teamId),
    newestFirst: true,
  });
  return items.map((i) => stripKeys(i) as unknown as InvitationRecord);
}

/** 32 random bytes: unguessable, and unique through its guard item. */
const newToken = () => randomBytes(32).toString('base64url');

export async function createInvitation(
  db: Db,
  input: { teamId: string; email: string; role: string; invitedBy: string },
  now = new Date(),
): Promise<InvitationRecord> {
  const invitation: InvitationRecord = {
    id: newId(),
    teamId: input.teamId,
    email: input.email,
    role: input.role,
    token: newToken(),
    status: 'pending',
    invitedBy: input.invitedBy,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + TEAM_LIMITS.invitationDays * 86_400_000).toISOString(),
  };
  await db.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: db.table,
            Item: {
              ...invitationKey(invitation.id),
              ...invitationIndexes(input.teamId, invitation.id),
              ...invitation,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: db.table,
            Item: { ...invitationTokenKey(invitation.token), invitationId: invitation.id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        // The team must still exist when its invitation is written.
        {
          ConditionCheck: {
            TableName: db.table,
            Key: teamKey(input.teamId),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
      ],
    }),
  );
  return invitation;
}

export async function getInvitation(db: Db, id: string): Promise<InvitationRecord | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: invitationKey(id) }));
  return res.Item ? (stripKeys(res.Item) as unknown as InvitationRecord) : null;
}

export async function getInvitationByToken(db: Db, token: string): Promise<InvitationRecord | null> {
  const ref = await db.doc.send(new GetCommand({ TableName: db.table, Key: invitationTokenKey(token) }));
  return ref.Item ? getInvitation(db, ref.Item.invitationId as string) : null;
}

/** A revoked invitation is kept (marked) so its link says "revoked" rather than "not valid". */
export async function revokeInvitation(db: Db, id: string): Promise<boolean> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: invitationKey(id),
        UpdateExpression: 'SET #s = :revoked',
        ConditionExpression: '#s = :pending',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':revoked': 'revoked', ':pending': 'pending' },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/**
 * Why this user cannot accept, as far as a read tells (the transaction below re-checks it all); null when
 * they can. Email addresses compare case-insensitively.
 */
export function invitationProblem(
  invitation: InvitationRecord,
  team: Team | null,
  user: Pick<UserRecord, 'email' | 'teamId'>,
  now = nowIso(),
): string | null {
  if (!team || invitation.status === 'revoked') return INVITATION_PROBLEMS.revoked;
  if (invitation.status === 'accepted') return INVITATION_PROBLEMS.used;
  if (invitation.expiresAt <= now) return INVITATION_PROBLEMS.expired;
  if ((user.email ?? '').toLowerCase() !== invitation.email.toLowerCase())
    return INVITATION_PROBLEMS.wrongEmail;
  if (user.teamId) return INVITATION_PROBLEMS.inTeam;
  if (team.memberCount >= team.maxMembers) return INVITATION_PROBLEMS.full;
  return null;
}

/** Joins the user to the invitation's team: invitation used, member counted, user's teamId set, at once. */
export async function acceptInvitation(
  db: Db,
  invitation: InvitationRecord,
  user: UserRecord,
): Promise<void> {
  const now = nowIso();
  try {
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: db.table,
              Key: invitationKey(invitation.id),
              UpdateExpression: 'SET #s = :accepted, acceptedBy = :user, acceptedAt = :now',
              ConditionExpression: '#s = :pending AND expiresAt > :now',
              ExpressionAttributeNames: { '#s': 'status' },
              ExpressionAttributeValues: {
                ':accepted': 'accepted',
                ':pending': 'pending',
                ':user': user.id,
                ':now': now,
              },
            },
          },
          {
            Update: {
              TableName: db.table,
              Key: teamKey(invitation.teamId),
              UpdateExpression: 'SET memberCount = memberCount + :one, updatedAt = :now',
              ConditionExpression: 'attribute_exists(pk) AND memberCount < maxMembers',
              ExpressionAttributeValues: { ':one': 1, ':now': now },
            },
          },
          joinUpdate(db, user.id, invitation.teamId, now),
        ],
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const failed = failedConditionIndexes(err);
    if (failed.includes(2)) throw new AppError(409, INVITATION_PROBLEMS.inTeam);
    if (failed.includes(1)) {
      // Full, or deleted while this was on its way.
      const team = await getTeam(db, invitation.teamId);
      throw new AppError(409, team ? INVITATION_PROBLEMS.full : INVITATION_PROBLEMS.revoked);
    }
    // The invitation changed since it was read: say what it is now.
    const now2 = await getInvitation(db, invitation.id);
    throw new AppError(
      409,
      now2?.status === 'accepted'
        ? INVITATION_PROBLEMS.used
        : now2?.status === 'pending'
          ? INVITATION_PROBLEMS.expired
          : INVITATION_PROBLEMS.revoked,
    );
  }
}

/** A member leaves (or is removed): their teamId is cleared and the team counts one fewer, at once. */
export async function removeMember(db: Db, teamId: string, userId: string): Promise<boolean> {
  try {
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          leaveUpdate(db, userId, teamId),
          {
            Update: {
              TableName: db.table,
              Key: teamKey(teamId),
              UpdateExpression: 'SET memberCount = memberCount - :one, updatedAt = :now',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':one': 1, ':now': nowIso() },
            },
          },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/**
 * Deletes a team: its members' teamId becomes null (spec section 3), its invitations and their tokens go,
 * then the team and its slug. Members first, so a failure half way leaves no one in a missing team for long
 * and a retry finishes the job.
 */
export async function deleteTeam(db: Db, team: Team): Promise<void> {
  const members = await queryPartition(db, {
    index: 'gsi2',
    partition: teamMembersPartition(team.id),
    projection: 'id',
  });
  for (const m of members) {
    try {
      await db.doc.send(
        new TransactWriteCommand({ TransactItems: [leaveUpdate(db, m.id as string, team.id)] }),
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err; // already left
    }
  }
  const invitations = await listTeamInvitations(db, team.id);
  // The team's invitation counter goes with it (no team, nothing more to count); its owner's stays, so a
  // team deleted and made again sends no more that day.
  const counters = await queryTable(db, ratePartition(INVITATION_RATE_SCOPES.team, team.id));
  await batchDelete(db, [
    ...invitations.flatMap((i) => [invitationKey(i.id), invitationTokenKey(i.token)]),
    ...counters,
    teamSlugGuardKey(team.slug),
    teamKey(team.id),
  ]);
}
