import type { Analysis } from '@csp/shared/schemas/analysis';
import { describe, expect, it } from 'vitest';
import { analysisReport, REPORT_FILENAME } from './report';

describe('Download Report', () => {
  it('holds url, timestamp (completion time), cspRules, stats and errors', () => {
    const analysis: Analysis = {
      id: 'a1',
      domainId: null,
      userId: 'u1',
      url: 'https://a.example',
      status: 'completed',
      progress: 100,
      totalPages: 1,
      currentPage: null,
      userAgent: '',
      maxPages: 50,
      crawlDelay: 1000,
      createdAt: '2026-01-01T10:00:00.000Z',
      startedAt: '2026-01-01T10:00:01.000Z',
      completedAt: '2026-01-01T10:05:00.000Z',
      cspRules: { 'default-src': ["'self'"] },
      resourceStats: { totalResources: 3, uniqueDomains: 1, securityIssues: 0 },
      errors: ['https://a.example/x: 404'],
    };
    expect(REPORT_FILENAME).toBe('csp-analysis-report.json');
    expect(analysisReport(analysis)).toEqual({
      url: 'https://a.example',
      timestamp: '2026-01-01T10:05:00.000Z',
      cspRules: { 'default-src': ["'self'"] },
      stats: { totalResources: 3, uniqueDomains: 1, securityIssues: 0 },
      errors: ['https://a.example/x: 404'],
    });
  });
});
