// Every DynamoDB key shape of the single table, and nothing else. No other file spells a key.
//   pk/sk            the item itself
//   gsi1pk/gsi1sk    the owner's collection (a user's domains, analyses, sessions)
//   gsi2pk/gsi2sk    the parent's collection (a domain's analyses)
//   gsi3pk/gsi3sk    one partition per entity type, for the admin lists (paginated)
import { createHash } from 'node:crypto';
import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import { KEY_PREFIX as P } from '@csp/shared/store/key-prefixes';

export const userKey = (id: string) => ({ pk: `USER#${id}`, sk: 'USER' });
export const userIndexes = (id: string) => ({ gsi3pk: 'TYPE#USER', gsi3sk: id });
export const usernameGuardKey = (username: string) => ({
  pk: `USERNAME#${username.toLowerCase()}`,
  sk: 'GUARD',
});
export const emailGuardKey = (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'GUARD' });

export const sessionKey = (sid: string) => ({ pk: `SESSION#${sid}`, sk: 'SESSION' });
export const sessionIndexes = (userId: string, sid: string) => ({
  gsi1pk: `OWNER#${userId}#SESSION`,
  gsi1sk: sid,
});
export const userSessionsPartition = (userId: string) => `OWNER#${userId}#SESSION`;

/** An API token, found by the SHA-256 of its value (the value itself is never stored). */
export const apiTokenKey = (hash: string) => ({ pk: `APITOKEN#${hash}`, sk: 'TOKEN' });
export const apiTokenIndexes = (userId: string, id: string) => ({
  gsi1pk: `OWNER#${userId}#APITOKEN`,
  gsi1sk: id,
});
export const userApiTokensPartition = (userId: string) => `OWNER#${userId}#APITOKEN`;

export const domainKey = (id: string) => ({ pk: `${P.domain}${id}`, sk: 'DOMAIN' });
export const domainIndexes = (userId: string, id: string) => ({
  gsi1pk: `OWNER#${userId}#DOMAIN`,
  gsi1sk: id,
  gsi3pk: 'TYPE#DOMAIN',
  gsi3sk: id,
});
export const userDomainsPartition = (userId: string) => `OWNER#${userId}#DOMAIN`;
/** Report ingestion finds a domain by its public uuid. */
export const domainUuidKey = (uuid: string) => ({ pk: `${P.domainUuid}${uuid}`, sk: 'REF' });

export const analysisKey = (id: string) => ({ pk: `${P.analysis}${id}`, sk: 'ANALYSIS' });
export const analysisIndexes = (userId: string, domainId: string | null, id: string) => ({
  gsi1pk: `OWNER#${userId}#ANALYSIS`,
  gsi1sk: id,
  ...(domainId ? { gsi2pk: `${P.domain}${domainId}#ANALYSIS`, gsi2sk: id } : {}),
  gsi3pk: 'TYPE#ANALYSIS',
  gsi3sk: id,
});
export const userAnalysesPartition = (userId: string) => `OWNER#${userId}#ANALYSIS`;
export const domainAnalysesPartition = (domainId: string) => `${P.domain}${domainId}#ANALYSIS`;
/**
 * A domain's one analysis waiting or running (store/domain-run-guard.ts). A partition of its own, not beside
 * the domain item: the crawl writer and the dead-letter handler release it and may touch nothing of DOMAIN#.
 */
export const domainRunGuardKey = (domainId: string) => ({ pk: `${P.domainRun}${domainId}`, sk: 'GUARD' });

/*
 * A user's achievements and counters, and their run slots, live in partitions of their own, not beside the
 * user item: the crawler writes them, and its IAM policy allows only the key prefixes it needs
 * (dynamodb:LeadingKeys, see shared/src/store/key-prefixes.ts), never USER# (password hashes, 2FA secrets).
 */
export const achievementsPartition = (userId: string) => `${P.achievements}${userId}`;
export const achievementKey = (userId: string, type: string) => ({
  pk: achievementsPartition(userId),
  sk: `ACHIEVEMENT#${type}`,
});
export const achievementPrefix = (userId: string) => ({
  pk: achievementsPartition(userId),
  skPrefix: 'ACHIEVEMENT#',
});
/** What the achievements count per user (domains added, analyses completed, reports received…). */
export const achievementCountersKey = (userId: string) => ({
  pk: achievementsPartition(userId),
  sk: 'COUNTERS',
});

/** A solved proof-of-work challenge, kept until it expires so it is accepted once. */
export const altchaGuardKey = (signature: string) => ({ pk: `ALTCHA#${signature}`, sk: 'USED' });

/** Fixed-window counters (store/rate-limits.ts, their rules in auth/rate-limit.ts): sign-in and re-authentication failures, invitations sent per day. */
export const ratePartition = (scope: string, subject: string) => `RATE#${scope}#${subject}`;
export const rateKey = (scope: string, subject: string, window: number) => ({
  pk: ratePartition(scope, subject),
  sk: `W#${window}`,
});

/** A sign-in waiting for its 2FA code: single use, expires in minutes, counts its wrong codes. */
export const mfaPendingKey = (id: string) => ({ pk: `MFA#${id}`, sk: 'PENDING' });

/** Used TOTP time steps, so a code is not accepted twice. */
export const totpStepKey = (userId: string, step: number) => ({ pk: `TOTP#${userId}`, sk: `STEP#${step}` });
export const totpStepsPartition = (userId: string) => `TOTP#${userId}`;

export const TYPE_PARTITIONS = {
  user: 'TYPE#USER',
  domain: 'TYPE#DOMAIN',
  analysis: 'TYPE#ANALYSIS',
} as const;

/** A user's running-analysis slots (one item: analysis id → lease end), so one tenant cannot starve others. */
export const runSlotsKey = (userId: string) => ({ pk: `${P.runSlots}${userId}`, sk: 'RUNSLOTS' });

/*
 * A user's crawl quota: the analyses waiting to crawl (one item: analysis id → entry expiry, epoch ms) and the
 * pages reserved per UTC day (one counter item per day).
 */
export const crawlQuotaPartition = (userId: string) => `${P.crawlQuota}${userId}`;
export const waitingAnalysesKey = (userId: string) => ({ pk: crawlQuotaPartition(userId), sk: 'WAITING' });
export const dailyPagesKey = (userId: string, day: string) => ({
  pk: crawlQuotaPartition(userId),
  sk: `PAGES#${day}`,
});

/** A stored violation report. A domain's reports are its gsi2 partition, newest first (ids sort by time). */
export const reportKey = (id: string) => ({ pk: `${P.report}${id}`, sk: 'REPORT' });
export const reportIndexes = (domainId: string, id: string) => ({
  gsi2pk: `${P.domain}${domainId}#REPORT`,
  gsi2sk: id,
});
export const domainReportsPartition = (domainId: string) => `${P.domain}${domainId}#REPORT`;

/**
 * Exact report counts per directive × blocked source × hour. A domain's counters are spread over
 * REPORT_LIMITS.counterShards partitions by group, so one hot domain cannot exceed a partition's write rate.
 */
export const reportCountPartition = (domainId: string, shard: number) =>
  `${P.reportCount}${domainId}#${shard}`;
export const reportCountKey = (
  domainId: string,
  shard: number,
  hour: string,
  directive: string,
  source: string,
) => ({
  pk: reportCountPartition(domainId, shard),
  sk: `${hour}#${boundedKeyPart(directive, '#')}#${boundedKeyPart(source)}`,
});

/**
 * A counter's sort key read back: its hour, directive and source, each null where the key holds a digest
 * (the counter then keeps the text as an attribute). The owner's list reads groups from their keys, so it
 * reads small items.
 */
export function parseReportCountSk(
  sk: string,
): { hour: string; directive: string | null; source: string | null } | null {
  const hour = sk.slice(0, 13);
  if (sk[13] !== '#') return null;
  const rest = sk.slice(14);
  const cut = rest.indexOf('#');
  if (cut < 0) return null;
  const directive = rest.slice(0, cut);
  const source = rest.slice(cut + 1);
  return {
    hour,
    directive: directive.startsWith('~') ? null : directive,
    source: source.startsWith('~') ? null : source,
  };
}

/**
 * The hour's one counter of reports whose group came after the hour's cap of new groups
 * (REPORT_LIMITS.newGroupsPerDomainHour). `~` sorts after every group's `#`, so no group can name it.
 */
export const reportOtherCountKey = (domainId: string, hour: string) => ({
  pk: reportCountPartition(domainId, 0),
  sk: `${hour}~OTHER`,
});

/**
 * Browser-supplied text in a sort key: kept as is when short, else its SHA-256 digest (`~` and 43
 * characters), so no report can push a key past DynamoDB's 1,024 bytes (the text itself is kept, cut, as an
 * attribute). Text that could be read as a digest or contains `separator` is a digest too.
 */
function boundedKeyPart(value: string, separator?: string): string {
  const plain =
    Buffer.byteLength(value) <= REPORT_LIMITS.maxKeySourceBytes &&
    !value.startsWith('~') &&
    !(separator && value.includes(separator));
  return plain ? value : `~${createHash('sha256').update(value).digest('base64url')}`;
}

/**
 * A domain's clearing of its reports, done in the background by the report consumer: its progress, polled
 * by the panel. A partition of its own (not the domain's), so the consumer may write it without being able
 * to write domains, and it outlives a deleted domain whose reports it is still clearing.
 */
export const reportClearKey = (domainId: string) => ({ pk: `${P.reportClear}${domainId}`, sk: 'JOB' });

/** Per domain and hour: reports received, raw reports kept, and noise dropped by reason. */
export const reportStatsPartition = (domainId: string) => `${P.reportStats}${domainId}`;
export const reportStatsKey = (domainId: string, hour: string) => ({
  pk: reportStatsPartition(domainId),
  sk: hour,
});

/** One stored copy of each distinct policy a domain's reports were sent under (reports keep its hash). */
export const reportPolicyPartition = (domainId: string) => `${P.reportPolicy}${domainId}`;
export const reportPolicyKey = (domainId: string, hash: string) => ({
  pk: reportPolicyPartition(domainId),
  sk: hash,
});

/** Queue messages already counted, by the second they were sent: a redelivered message is not counted twice. */
export const reportGuardPartition = (domainId: string) => `${P.reportGuard}${domainId}`;
export const reportGuardKey = (domainId: string, sentSecond: number) => ({
  pk: reportGuardPartition(domainId),
  sk: String(sentSecond),
});

/**
 * Suspicious inline-code groups (directive × code × sample matching nothing the crawl saw) a domain's
 * reports have shown: the first report of each resets its owner's quiet week.
 */
export const suspiciousSeenPartition = (domainId: string) => `${P.suspiciousSeen}${domainId}`;
export const suspiciousSeenKey = (domainId: string, hash: string) => ({
  pk: suspiciousSeenPartition(domainId),
  sk: hash,
});

/** What a completed crawl saw (inline code samples per page), kept beside its analysis for suggestions. */
export const knowledgeKey = (analysisId: string) => ({ pk: `${P.analysis}${analysisId}`, sk: 'KNOWLEDGE' });

/** What a completed crawl tried, page by page ('Crawled pages'), kept beside its analysis. */
export const crawledPagesKey = (analysisId: string) => ({ pk: `${P.analysis}${analysisId}`, sk: 'PAGES' });

/** A saved CSP configuration. A domain's configurations are its gsi2 partition, oldest first. */
export const configurationKey = (id: string) => ({ pk: `CONFIG#${id}`, sk: 'CONFIG' });
export const configurationIndexes = (domainId: string, id: string) => ({
  gsi2pk: `${P.domain}${domainId}#CONFIG`,
  gsi2sk: id,
});
export const domainConfigurationsPartition = (domainId: string) => `${P.domain}${domainId}#CONFIG`;

/** A team. Its slug is unique through a guard item written in the same transaction. */
export const teamKey = (id: string) => ({ pk: `TEAM#${id}`, sk: 'TEAM' });
export const teamSlugGuardKey = (slug: string) => ({ pk: `TEAMSLUG#${slug.toLowerCase()}`, sk: 'GUARD' });
/** On a user item while they belong to a team: the team's members are its gsi2 partition, by joining time. */
export const teamMemberIndexes = (teamId: string, joinedAt: string, userId: string) => ({
  gsi2pk: `TEAM#${teamId}#MEMBER`,
  gsi2sk: `${joinedAt}#${userId}`,
});
export const teamMembersPartition = (teamId: string) => `TEAM#${teamId}#MEMBER`;

/** A team invitation; a team's invitations are its gsi2 partition, oldest first. */
export const invitationKey = (id: string) => ({ pk: `INVITATION#${id}`, sk: 'INVITATION' });
export const invitationIndexes = (teamId: string, id: string) => ({
  gsi2pk: `TEAM#${teamId}#INVITATION`,
  gsi2sk: id,
});
export const teamInvitationsPartition = (teamId: string) => `TEAM#${teamId}#INVITATION`;
/** Finds an invitation by its token and keeps tokens unique. */
export const invitationTokenKey = (token: string) => ({ pk: `INVITETOKEN#${token}`, sk: 'GUARD' });

/*
 * A domain's schedule, and beside it the history of what its due times did (RUN#<id>, ids sort by time).
 * While the schedule is on, the item is in one sparse gsi3 partition sorted by its next run, so the dispatcher
 * finds every due schedule with one Query (gsi3sk <= now) and no Scan; an off schedule leaves the index.
 * One partition for all schedules is enough: it takes one write per schedule per run (a few per domain per
 * day) and one read every few minutes, far under a partition's limits. A time-bucketed key would need one
 * query per bucket since the last dispatch, and a new GSI a table change for nothing gsi3 cannot do.
 */
export const schedulePartition = (domainId: string) => `${P.schedule}${domainId}`;
export const scheduleKey = (domainId: string) => ({ pk: schedulePartition(domainId), sk: 'SCHEDULE' });
export const SCHEDULES_DUE_PARTITION = `${P.schedule}DUE`;
/** Epoch ms, zero-padded so the string order is the time order. */
export const scheduleDueSortKey = (nextRunAt: number, domainId: string) =>
  `${String(nextRunAt).padStart(15, '0')}#${domainId}`;
export const scheduleDueIndexes = (nextRunAt: number, domainId: string) => ({
  gsi3pk: SCHEDULES_DUE_PARTITION,
  gsi3sk: scheduleDueSortKey(nextRunAt, domainId),
});
export const scheduleRunKey = (domainId: string, id: string) => ({
  pk: schedulePartition(domainId),
  sk: `RUN#${id}`,
});
export const scheduleRunPrefix = (domainId: string) => ({
  pk: schedulePartition(domainId),
  skPrefix: 'RUN#',
});

/*
 * A domain's alerts, one partition per domain (deleted with it): its alert settings, one item per alert
 * group (domain, kind, cause: the SHA-256 of the cause, so an attacker-chosen cause stays a short key), and
 * one item per delivery (ids sort by time: newest first). A delivery waiting for its next try is also in
 * the one "due" partition of gsi3, sorted by when: the sender finds what is due with one query.
 */
export const domainAlertsPartition = (domainId: string) => `${P.alert}${domainId}`;
export const alertSettingsKey = (domainId: string) => ({
  pk: domainAlertsPartition(domainId),
  sk: 'SETTINGS',
});
/**
 * A team's alert settings, keyed by the team's owner and not by the team: a team's domains are its owner's
 * and a domain carries its owner's id, so what raises a domain's alerts reads the domain's settings and its
 * team's in one BatchGet, under the alert prefix it holds (never TEAM# or USER#). Deleted with the team.
 */
export const teamAlertSettingsKey = (ownerId: string) => ({
  pk: `${P.alert}OWNER#${ownerId}`,
  sk: 'TEAMSETTINGS',
});
export const alertGroupItemKey = (domainId: string, kind: string, cause: string) => ({
  pk: domainAlertsPartition(domainId),
  sk: `GROUP#${createHash('sha256').update(`${kind}\u0000${cause}`).digest('hex').slice(0, 32)}`,
});
export const ALERT_GROUP_SK_PREFIX = 'GROUP#';
export const alertDeliveryKey = (domainId: string, id: string) => ({
  pk: domainAlertsPartition(domainId),
  sk: `DELIVERY#${id}`,
});
export const ALERT_DELIVERY_SK_PREFIX = 'DELIVERY#';
export const DUE_DELIVERIES_PARTITION = 'DUE#ALERTDELIVERY';
export const dueDeliveryIndexes = (nextAttemptAt: string, domainId: string, id: string) => ({
  gsi3pk: DUE_DELIVERIES_PARTITION,
  gsi3sk: `${nextAttemptAt}#${domainId}#${id}`,
});
/**
 * A domain whose reports are watched for stopping or spiking: on its alert partition, and in the one
 * "reporting" partition of gsi3 the hourly check reads.
 */
export const reportingMarkerKey = (domainId: string) => ({
  pk: domainAlertsPartition(domainId),
  sk: 'REPORTING',
});
export const REPORTING_DOMAINS_PARTITION = 'REPORTING#DOMAINS';
export const reportingMarkerIndexes = (domainId: string) => ({
  gsi3pk: REPORTING_DOMAINS_PARTITION,
  gsi3sk: domainId,
});

/**
 * Where a user's alerts are mailed: their e-mail address, kept apart from the user item so the function
 * that sends alerts reads this and never USER# (password hashes, 2FA secrets). The API writes it when a
 * domain is added, the address changes or the alerts are set.
 */
export const userContactKey = (userId: string) => ({ pk: `${P.contact}${userId}`, sk: 'CONTACT' });

/*
 * A domain's script inventory (store/script-inventory.ts): one partition holds its scripts (`S#` and the
 * SHA-256 of the script's key: keys are URLs up to 2 KB, some from visitors' reports), its authorization
 * rules (`R#`) and one META item (the last run folded in). Its history is a partition of its own, appended
 * to and never changed: a script's rows under `S#<hash>#`, a rule's under `R#<rule id>#`, each ending with a
 * time-sortable id.
 */
const scriptHash = (key: string) => createHash('sha256').update(key).digest('base64url');
export const scriptInventoryPartition = (domainId: string) => `${P.scripts}${domainId}`;
export const scriptEntryKey = (domainId: string, key: string) => ({
  pk: scriptInventoryPartition(domainId),
  sk: `S#${scriptHash(key)}`,
});
export const SCRIPT_ENTRY_SK_PREFIX = 'S#';
export const scriptRuleKey = (domainId: string, ruleId: string) => ({
  pk: scriptInventoryPartition(domainId),
  sk: `R#${ruleId}`,
});
export const SCRIPT_RULE_SK_PREFIX = 'R#';
export const scriptInventoryMetaKey = (domainId: string) => ({
  pk: scriptInventoryPartition(domainId),
  sk: 'META',
});
export const scriptHistoryPartition = (domainId: string) => `${P.scriptHistory}${domainId}`;
export const scriptHistoryKey = (
  domainId: string,
  about: { scriptKey: string } | { ruleId: string },
  id: string,
) => ({
  pk: scriptHistoryPartition(domainId),
  sk: `${scriptHistoryPrefix(about)}${id}`,
});
/** The sort-key prefix of one script's (or one rule's) history rows. */
export const scriptHistoryPrefix = (about: { scriptKey: string } | { ruleId: string }) =>
  'scriptKey' in about ? `S#${scriptHash(about.scriptKey)}#` : `R#${about.ruleId}#`;
/** How many scripts only visitors' reports named a domain's inventory holds (capped: reports are attacker input). */
export const scriptFieldCounterKey = (domainId: string) => ({
  pk: scriptInventoryPartition(domainId),
  sk: 'FIELDCOUNT',
});

/**
 * A domain's field hashes (store/field-hashes.ts), one partition: per script (the SHA-256 of its key, as in
 * the inventory) one item with its integrity violations and how many digests it holds, one item per digest
 * under it, and one COUNT item (how many scripts it holds: capped, the reports are attacker input).
 */
export const fieldHashPartition = (domainId: string) => `${P.fieldHashes}${domainId}`;
export const fieldHashScriptKey = (domainId: string, scriptKey: string) => ({
  pk: fieldHashPartition(domainId),
  sk: `S#${scriptHash(scriptKey)}`,
});
export const fieldHashDigestKey = (domainId: string, scriptKey: string, digest: string) => ({
  pk: fieldHashPartition(domainId),
  sk: `S#${scriptHash(scriptKey)}#D#${digest}`,
});
export const fieldHashCountKey = (domainId: string) => ({ pk: fieldHashPartition(domainId), sk: 'COUNT' });
/** Whether a field-hash item's sort key is a digest's (else a script's or the COUNT). */
export const isFieldHashDigestSk = (sk: string) => sk.includes('#D#');

/** A domain's watched runs, one item per completed analysis (ids sort by time: the latest is the last). */
export const watchRunsPartition = (domainId: string) => `${P.watchRun}${domainId}`;
export const watchRunKey = (domainId: string, analysisId: string) => ({
  pk: watchRunsPartition(domainId),
  sk: `RUN#${analysisId}`,
});
