// Every limit of the report path, in one place: the ingest handler, the consumer, the owner API and the
// web panel read them from here.
export const REPORT_LIMITS = {
  /** A single report (application/csp-report, application/json). */
  maxSingleBodyBytes: 64 * 1024,
  /** A Reporting API batch (application/reports+json). */
  maxBatchBodyBytes: 256 * 1024,
  /** Reports of one Reporting API batch that are read (Chrome sends at most 100). */
  maxReportsPerBatch: 100,
  /** Reports per queue message: keeps a message's counter groups inside one 100-item transaction. */
  maxReportsPerMessage: 50,
  /** Windows of the reports panel and the owner API, in days (spec: 1, 3 or 7; 7 is the default). */
  windowsDays: [1, 3, 7] as const,
  defaultWindowDays: 7,
  /** Raw reports are kept this long (DynamoDB TTL); counts per hour too. */
  retentionDays: 30,
  /** Raw reports kept per group (directive × blocked source) and hour before sampling starts. */
  rawPerGroupHour: 10,
  /** Raw reports kept per domain and hour before sampling starts. */
  rawBudgetPerDomainHour: 500,
  /** Above either budget, one raw report in this many is kept (counts are never sampled). */
  sampleOneIn: 100,
  /** An exact repeat of a report from the same client within this window is noise. */
  repeatWindowMs: 10_000,
  /**
   * Partitions a domain's counters are spread over, by group: a domain whose reports have many distinct
   * groups cannot push one partition past DynamoDB's 1,000 writes/s.
   */
  counterShards: 8,
  /**
   * New groups (directive × blocked source) a domain's counters take individually per hour; the reports of
   * further new groups that hour are added to the hour's one "other" counter (its total stays exact). This
   * bounds both the writes a flood of distinct sources costs and what a window holds: 300 × 24 × 7 = 50,400
   * groups at most in the 7-day window, which the owner's list reads in about a second.
   */
  newGroupsPerDomainHour: 300,
  /** Groups the owner's list and the suggestions answer, most reported first (the rest are summed). */
  groupsShown: 200,
  /** Of those, the panel's table lists this many at first, and this many more per click. */
  groupsListedFirst: 25,
  /** The suggestions (a card each) listed at first, and per click, in the panel and the rules generator. */
  suggestionsListedFirst: 10,
  /**
   * A blocked source in a counter's sort key (DynamoDB: 1,024 bytes at most): longer ones are keyed by
   * their SHA-256 digest, their text kept as an attribute, cut to maxGroupSourceChars.
   */
  maxKeySourceBytes: 200,
  maxGroupSourceChars: 512,
  /** Page size of the owner API's report list. */
  pageSize: 50,
  maxPageSize: 200,
  /**
   * A page of the report list ends early past this many bytes of reports (each may carry a 16 KB policy and
   * four 2 KB URLs), so the whole answer stays under 1 MB; its cursor goes on from there.
   */
  maxListPageBytes: 600 * 1024,
  /** Stored string lengths: reports are attacker input, so nothing unbounded is kept. */
  maxUrlChars: 2048,
  maxDirectiveChars: 256,
  maxSampleChars: 256,
  maxUserAgentChars: 512,
  maxPolicyChars: 16 * 1024,
} as const;

/**
 * Field hashes: `csp-hash` reports ('report-sha256': the SHA-256 of each script a visitor's browser ran)
 * and `integrity-violation` reports (a script loaded without integrity). They ride in the same batches,
 * under the same body sizes and rate limits as CSP reports; their counters are capped because every
 * script URL and digest in them is the reporter's to choose.
 */
export const FIELD_HASH_LIMITS = {
  /** Scripts a domain's field-hash counters hold (as many as the inventory's field-only scripts). */
  scriptsPerDomain: 500,
  /** Distinct digests counted per script: a real script has one or two at a time. */
  digestsPerScript: 10,
  /** "Content no crawl saw" alerts raised per consumed batch (each grouped per script and digest). */
  alertsPerBatch: 5,
  /** Scripts of one batch looked up in the inventory to reconcile their digests. */
  scriptsReconciledPerBatch: 20,
  /** Destinations whose digests are counted (browsers report scripts only today; others are other-type). */
  destination: 'script',
} as const;

/** Sources browsers and extensions report that say nothing about the site (dropped as noise). */
export const NOISE_PREFIXES = [
  'chrome-extension',
  'moz-extension',
  'safari-extension',
  'safari-web-extension',
  'ms-browser-extension',
  'chrome:',
  'resource:',
  'webkit-masked-url:',
] as const;

/** Why a report was dropped; each is counted per domain and hour. */
export const DROP_REASONS = ['extension', 'offsite', 'repeat', 'other-type'] as const;
export type DropReason = (typeof DROP_REASONS)[number];
