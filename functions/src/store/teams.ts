// Teams and their members (invitations: team-invitations.ts). Every change of membership is one transaction
// that checks what must hold (the user is in no team, the team has room, the invitation is pending and
// unexpired), so two parallel accepts cannot overfill a team and one invitation cannot be used twice.
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { INVITATION_PROBLEMS, type Team, type TeamMember, teamSchema } from '@csp/shared/schemas/team';
import { AppError, fieldError } from '../errors';
import { batchDelete } from './batch';
import { type Db, failedConditionIndexes, isConditionFailure, nowIso } from './db';
import { newId } from './ids';
import { itemReader } from './items';
import {
  invitationKey,
  invitationTokenKey,
  ratePartition,
  teamAlertSettingsKey,
  teamKey,
  teamMemberIndexes,
  teamMembersPartition,
  teamSlugGuardKey,
  userKey,
} from './keys';
import { queryPartition, queryTable } from './query';
import {
  getInvitation,
  INVITATION_RATE_SCOPES,
  type InvitationRecord,
  listTeamInvitations,
} from './team-invitations';
import { type UserRecord, userFromItem } from './users';

export const SLUG_TAKEN = 'That team slug is taken';
export const ALREADY_IN_TEAM = 'You already belong to a team';

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
    throw fieldError(409, 'slug', SLUG_TAKEN);
  }
  return team;
}

/** The one place a stored item becomes a team. */
export const teamFromItem = itemReader(teamSchema);

export async function getTeam(db: Db, id: string): Promise<Team | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: teamKey(id) }));
  return res.Item ? teamFromItem(res.Item) : null;
}

/** The members, owner first, then in the order they joined. */
export async function listTeamMembers(db: Db, team: Team): Promise<TeamMember[]> {
  const items = await queryPartition(db, { index: 'gsi2', partition: teamMembersPartition(team.id) });
  const members = items.map(userFromItem).map((u): TeamMember => {
    const role = u.id === team.ownerId ? 'owner' : 'member';
    return {
      id: u.id,
      username: u.username,
      firstName: u.firstName,
      lastName: u.lastName,
      email: u.email,
      role,
      createdAt: u.createdAt,
      joinedAt: u.teamJoinedAt ?? u.createdAt,
    };
  });
  return members.sort((a, b) => Number(b.role === 'owner') - Number(a.role === 'owner'));
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
    // Its alert settings: the owner's domains go back to their own.
    teamAlertSettingsKey(team.ownerId),
    teamKey(team.id),
  ]);
}
