// Field digests against the crawl, after the report consumer counted them: each digest visitors' browsers
// reported for a script whose crawl digest is known and different, and that no earlier crawl saw either (a
// visitor's cached copy from before an update is not an alert), is content no crawl saw (served to some
// visitors only, or tampered): an alert, grouped per script and digest (its reports again are counted, not
// sent again). A script without a crawl digest (only the field reported it, or the crawl did not read its
// body) raises nothing: there is nothing to compare with (see digestVerdict).
import { createHash } from 'node:crypto';
import { ALERT_KIND_TITLES } from '@csp/shared/alerts/alert';
import { FIELD_HASH_LIMITS } from '@csp/shared/reports/limits';
import type { Domain } from '@csp/shared/schemas/domain';
import { crawlDigestsOf, digestVerdict, type FieldDigestCount } from '@csp/shared/watch/field-digests';
import type { Db } from '../store/db';
import { getScriptEntries } from '../store/script-inventory';
import { type AlertRouting, alertRoutingOf, raiseAndQueue } from './deliver';

const URL_CHARS = 200;

/** The alerts raised (script key and digest of each), for the caller's log and tests. */
export async function watchFieldDigests(
  db: Db,
  domain: Pick<Domain, 'id' | 'name' | 'userId'>,
  digests: readonly FieldDigestCount[],
  now = Date.now(),
): Promise<{ scriptKey: string; digest: string }[]> {
  const scriptKeys = [...new Set(digests.map((d) => d.scriptKey))].slice(
    0,
    FIELD_HASH_LIMITS.scriptsReconciledPerBatch,
  );
  const entries = await getScriptEntries(db, domain.id, scriptKeys);
  const crawl = new Map(scriptKeys.map((key) => [key, crawlDigestsOf(entries.get(key))]));
  const unknown = digests
    .filter((d) => digestVerdict(crawl.get(d.scriptKey), d.digest) === 'unknown')
    .slice(0, FIELD_HASH_LIMITS.alertsPerBatch);
  // The alert settings (the domain's or its team's) are read once, and only when there is an alert.
  let routing: AlertRouting | undefined;
  for (const d of unknown) {
    routing ??= await alertRoutingOf(db, domain);
    await raiseAndQueue(
      db,
      {
        domainId: domain.id,
        domainName: domain.name,
        kind: 'field-digest',
        // A script key is a URL of up to 2 KB: the cause is its digest with the reported one.
        cause: createHash('sha256').update(`${d.scriptKey}\n${d.digest}`).digest('base64url'),
        summary: `${ALERT_KIND_TITLES['field-digest']}: ${d.scriptKey.slice(0, URL_CHARS)} ran as ${d.digest}, the crawl saw ${crawl.get(d.scriptKey)?.current}`,
        path: `/domains/${domain.id}#scripts`,
      },
      now,
      routing,
    );
  }
  return unknown.map((d) => ({ scriptKey: d.scriptKey, digest: d.digest }));
}
