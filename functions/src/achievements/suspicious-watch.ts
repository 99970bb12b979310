// Quiet Week: a week of reports without a new suspicious inline-code group. A report batch's inline code and
// eval are judged as the workbench judges them (shared/src/reports/suggestions.ts against the domain's
// latest crawl); each suspicious group (directive × code × sample) is remembered per domain, and the first
// report of one tells the caller to restart its owner's week (and to raise the domain's alert).
import { createHash } from 'node:crypto';
import { groupDirective, groupSource, isCodeSource } from '@csp/shared/reports/group';
import { type ReportGroupEvidence, suggestFromReports } from '@csp/shared/reports/suggestions';
import type { Domain } from '@csp/shared/schemas/domain';
import type { NormalizedReport } from '@csp/shared/schemas/report';
import { byCodeUnits } from '@csp/shared/text/order';
import { listDomainAnalyses } from '../store/analyses';
import type { Db } from '../store/db';
import { getKnowledge } from '../store/knowledge';
import { rememberSuspiciousGroup } from '../store/suspicious-watch';

/** A suspicious inline-code group a domain's reports showed for the first time. */
export interface NewSuspiciousGroup {
  /** Stable per domain (directive × code × sample): what an alert groups by. */
  hash: string;
  directive: string;
  source: string;
  sample: string;
  count: number;
}

/** The suspicious groups in these reports that the domain's reports never showed before. */
export async function newSuspiciousGroups(
  db: Db,
  domain: Domain,
  reports: NormalizedReport[],
): Promise<NewSuspiciousGroup[]> {
  // One evidence group per directive × code × sample, so each yields one verdict.
  const groups = new Map<string, ReportGroupEvidence>();
  for (const r of reports) {
    const source = groupSource(r.blockedUri);
    if (!isCodeSource(source)) continue;
    const directive = groupDirective(r.violatedDirective);
    const sample = r.scriptSample ?? '';
    const key = `${directive}\n${source}\n${sample}`;
    const g = groups.get(key) ?? {
      directive,
      source,
      count: 0,
      firstSeen: r.reportedAt,
      lastSeen: r.reportedAt,
      reports: [],
    };
    g.count += 1;
    g.reports.push({ documentUri: r.documentUri, scriptSample: sample });
    groups.set(key, g);
  }
  if (groups.size === 0) return [];

  const latest = (await listDomainAnalyses(db, domain.id))
    .filter((a) => a.status === 'completed' && a.cspRules)
    .sort((a, b) => byCodeUnits(b.completedAt ?? '', a.completedAt ?? ''))[0];
  const basis = {
    rules: latest?.cspRules ?? {},
    siteOrigin: new URL(latest?.url ?? domain.url).origin,
    knowledge: latest ? await getKnowledge(db, latest.id) : null,
  };
  const fresh: NewSuspiciousGroup[] = [];
  for (const [key, group] of groups) {
    const verdicts = suggestFromReports([group], basis);
    if (!verdicts.some((v) => v.class === 'suspicious-inline')) continue;
    const hash = createHash('sha256').update(key).digest('base64url');
    if (await rememberSuspiciousGroup(db, domain.id, hash, group.firstSeen)) {
      const sample = group.reports[0]?.scriptSample ?? '';
      fresh.push({ hash, directive: group.directive, source: group.source, sample, count: group.count });
    }
  }
  return fresh;
}
