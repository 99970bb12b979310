// Deleting a user with everything that is theirs (spec section 6: "which also deletes their domains and
// analyses"): each domain with its analyses and configurations (its reports are cleared by a background job,
// store/report-clear.ts, so a domain flooded with reports cannot make this time out); standalone analyses; sessions;
// achievements, counters, run slots and crawl quota; used 2FA steps; invitations-sent counters; then the user
// and its guards.
// The team they own is deleted (its members' teamId becomes null); from a team they are in, they leave.
// Done in that order so a failure half way can be retried and never leaves an item pointing at no user.
import { deleteAnalysisCascade } from './analyses';
import { deleteUserApiTokens } from './api-tokens';
import { batchDelete } from './batch';
import { deleteContact } from './contacts';
import { deleteDomainCascade, listUserDomains } from './domains';
import {
  achievementsPartition,
  crawlQuotaPartition,
  ratePartition,
  runSlotsKey,
  totpStepsPartition,
  userAnalysesPartition,
} from './keys';
import { queryPartition, queryTable } from './query';
import type { ReportClearDeps } from './report-clear';
import { deleteUserSessions } from './sessions';
import { dropTeamAlertRecipient } from './team-alerts';
import { INVITATION_RATE_SCOPES } from './team-invitations';
import { deleteTeam, getTeam, removeMember } from './teams';
import { deleteUserRecord, type UserRecord } from './users';

export async function deleteUserCascade(deps: ReportClearDeps, user: UserRecord): Promise<void> {
  const { db } = deps;
  const team = user.teamId ? await getTeam(db, user.teamId) : null;
  if (team?.ownerId === user.id) await deleteTeam(db, team);
  else if (team) {
    await removeMember(db, team.id, user.id);
    await dropTeamAlertRecipient(db, team, user.id);
  }
  for (const domain of await listUserDomains(db, user.id)) await deleteDomainCascade(deps, domain);
  const analyses = await queryPartition(db, {
    index: 'gsi1',
    partition: userAnalysesPartition(user.id),
    projection: 'id, domainId',
  });
  for (const a of analyses) {
    await deleteAnalysisCascade(db, { id: a.id as string, domainId: (a.domainId as string | null) ?? null });
  }
  await deleteUserSessions(db, user.id);
  await deleteUserApiTokens(db, user.id);
  await batchDelete(db, await queryTable(db, totpStepsPartition(user.id)));
  await batchDelete(db, await queryTable(db, ratePartition(INVITATION_RATE_SCOPES.user, user.id)));
  await batchDelete(db, [...(await queryTable(db, achievementsPartition(user.id))), runSlotsKey(user.id)]);
  await batchDelete(db, await queryTable(db, crawlQuotaPartition(user.id)));
  await deleteContact(db, user.id);
  // The user item last, with its guards.
  await deleteUserRecord(db, user);
}
