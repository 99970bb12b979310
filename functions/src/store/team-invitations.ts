// Team invitations: sent by a team's owner, used once through an unguessable token (its guard item keeps
// tokens unique and finds the invitation), revoked or expired ones kept so their link says why it no longer
// works. Accepting one changes the team's membership: that transaction is in teams.ts.
import { randomBytes } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { INVITATION_PROBLEMS, invitationSchema, TEAM_LIMITS, type Team } from '@csp/shared/schemas/team';
import * as z from 'zod';
import { type Db, isConditionFailure, nowIso } from './db';
import { newId } from './ids';
import { itemReader } from './items';
import {
  invitationIndexes,
  invitationKey,
  invitationTokenKey,
  teamInvitationsPartition,
  teamKey,
} from './keys';
import { queryPartition } from './query';
import type { UserRecord } from './users';

/** The counters of invitations sent per day (auth/rate-limit.ts), per user and per team. */
export const INVITATION_RATE_SCOPES = { user: 'invite-user', team: 'invite-team' } as const;

/** An invitation as stored: what its team sees, its token and what became of it. */
const invitationRecordSchema = invitationSchema
  .pick({ id: true, teamId: true, email: true, role: true, createdAt: true })
  .extend({
    token: z.string(),
    status: z.enum(['pending', 'accepted', 'revoked']),
    invitedBy: z.string(),
    /** ISO time (a string, so the table's TTL attribute never removes it: an expired link must say so). */
    expiresAt: z.string(),
    acceptedBy: z.string().optional(),
    acceptedAt: z.string().optional(),
  });
export type InvitationRecord = z.infer<typeof invitationRecordSchema>;

/** The one place a stored item becomes an invitation. */
export const invitationFromItem = itemReader(invitationRecordSchema);

export async function listTeamInvitations(db: Db, teamId: string): Promise<InvitationRecord[]> {
  const items = await queryPartition(db, {
    index: 'gsi2',
    partition: teamInvitationsPartition(teamId),
    newestFirst: true,
  });
  return items.map(invitationFromItem);
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
  return res.Item ? invitationFromItem(res.Item) : null;
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
