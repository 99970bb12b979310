// The partition-key prefixes of the single table that least privilege is written in. functions/src/store/
// keys.ts builds every key from these; infra/lib/table-access.ts turns each function's list into an IAM
// dynamodb:LeadingKeys condition; functions/src/testing/key-recorder.ts checks, by running each handler on
// DynamoDB Local, that it touches nothing else.
export const KEY_PREFIX = {
  analysis: 'ANALYSIS#',
  runSlots: 'RUNSLOTS#',
  crawlQuota: 'CRAWLQUOTA#',
  domainRun: 'DOMAINRUN#',
  achievements: 'ACHIEVE#',
  domain: 'DOMAIN#',
  domainUuid: 'DOMAINUUID#',
  report: 'REPORT#',
  reportCount: 'RCOUNT#',
  reportStats: 'RSTATS#',
  reportPolicy: 'RPOLICY#',
  reportGuard: 'RGUARD#',
  suspiciousSeen: 'RSUSP#',
  reportClear: 'RCLEAR#',
  schedule: 'SCHEDULE#',
  alert: 'ALERT#',
  contact: 'CONTACT#',
  scripts: 'SCRIPTS#',
  scriptHistory: 'SCRIPTHIST#',
  /** A domain's field hashes: script digests and integrity violations visitors' browsers reported. */
  fieldHashes: 'FIELDHASH#',
  /** A domain's watched runs: each completed analysis' snapshot and what changed since the one before. */
  watchRun: 'WATCHRUN#',
} as const;

const P = KEY_PREFIX;

/**
 * What each function other than the API may touch. The crawler itself runs a browser on hostile pages and
 * gets no table access at all: the crawl coordinator (which claims analyses and takes run slots) and the
 * crawl writer (the only way a crawler run writes, with its run's token) hold what it needs, including the
 * user's crawl quota (waiting analyses and daily pages, released and refunded as analyses start and end) and
 * the domain's one-run guard, released as its analysis ends.
 */
export const FUNCTION_KEY_PREFIXES = {
  // Reads due schedules (their index partition is SCHEDULE# too) and the domain, and starts analyses as the
  // API does: the analysis, the owner's crawl quota, the domain's one-run guard, and the domain's scan count.
  // It also sends alerts (their deliveries and settings, the owner's contact address, never USER#) and checks
  // the flow of reports (their hourly stats).
  scheduleDispatcher: [
    P.schedule,
    P.domain,
    P.analysis,
    P.crawlQuota,
    P.domainRun,
    P.alert,
    P.contact,
    P.reportStats,
  ],
  crawlCoordinator: [P.analysis, P.runSlots, P.crawlQuota],
  crawlWriter: [
    P.analysis,
    P.crawlQuota,
    P.domainRun,
    P.achievements,
    P.watchRun,
    P.domain,
    P.scripts,
    P.scriptHistory,
    P.alert,
  ],
  crawlDeadLetter: [P.analysis, P.crawlQuota, P.domainRun],
  reportIngest: [P.domainUuid, P.domain],
  reportConsumer: [
    P.domain,
    P.analysis,
    P.report,
    P.reportCount,
    P.reportStats,
    P.reportPolicy,
    P.reportGuard,
    P.suspiciousSeen,
    P.reportClear,
    P.achievements,
    // Scripts reports name that no crawl saw; alerts it raises (suspicious inline code) and the domain's
    // "reports arrived" mark.
    P.scripts,
    P.scriptHistory,
    P.alert,
    P.fieldHashes,
  ],
} as const;
export type RestrictedFunction = keyof typeof FUNCTION_KEY_PREFIXES;

/**
 * Of a function's prefixes, the ones it writes; the others it only reads (a function not named here writes
 * all of its own). The report consumer reads the domain and its latest crawl, and changes neither; it
 * deletes what a clearing of a domain's reports deletes (the stored reports, counts, policies, guards and
 * watch items) and advances the clearing's job item. It adds to a domain's script inventory the scripts
 * reports name that no crawl saw (watch/inventory-update.ts, recordFieldScripts) and appends their history.
 */
export const FUNCTION_WRITE_KEY_PREFIXES = {
  // The writer reads the domain's saved configurations (drift: what the site should serve), never writes them.
  crawlWriter: [
    P.analysis,
    P.crawlQuota,
    P.domainRun,
    P.achievements,
    P.watchRun,
    P.scripts,
    P.scriptHistory,
    P.alert,
  ],
  reportConsumer: [
    P.report,
    P.reportCount,
    P.reportStats,
    P.reportPolicy,
    P.reportGuard,
    P.suspiciousSeen,
    P.reportClear,
    P.achievements,
    P.alert,
    P.scripts,
    P.scriptHistory,
    P.fieldHashes,
  ],
} as const satisfies Partial<Record<RestrictedFunction, readonly string[]>>;
