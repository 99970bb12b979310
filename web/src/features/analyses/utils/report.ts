// The standalone generator's 'Download Report' (spec: csp-analysis-report.json with url, timestamp — the
// completion time — cspRules, stats — the resource stats — and errors).
import type { Analysis } from '@csp/shared/schemas/analysis';

export const REPORT_FILENAME = 'csp-analysis-report.json';

export function analysisReport(analysis: Analysis) {
  return {
    url: analysis.url,
    timestamp: analysis.completedAt,
    cspRules: analysis.cspRules,
    stats: analysis.resourceStats,
    errors: analysis.errors,
  };
}

export function analysisReportJson(analysis: Analysis): string {
  return `${JSON.stringify(analysisReport(analysis), null, 2)}\n`;
}
