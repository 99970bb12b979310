import { Severity as EvaluatorSeverity } from 'csp_evaluator/dist/finding.js';
import { describe, expect, it } from 'vitest';
import type { CrawlArtifact } from '../artifact';
import { syntheticArtifact } from '../artifact-factory';
import { compareFindings, highestSeverity, type PolicyFinding, SEVERITIES, severityRank } from '../finding';
import { generatePolicy } from '../generate';
import { evaluatorFindings, mapEvaluatorSeverity } from './csp-evaluator';

const high = (findings: PolicyFinding[]) => findings.filter((f) => f.severity === 'high');

describe('evaluatorFindings', () => {
  it('finds the high-severity holes of a known bad policy', () => {
    const findings = evaluatorFindings("script-src 'unsafe-inline' * data:; img-src *");
    const codes = high(findings).map((f) => `${f.code} ${f.directive} ${f.value ?? ''}`.trim());
    expect(codes).toEqual(
      expect.arrayContaining([
        "SCRIPT_UNSAFE_INLINE script-src 'unsafe-inline'",
        'PLAIN_WILDCARD script-src *',
        'PLAIN_URL_SCHEMES script-src data:',
        'MISSING_DIRECTIVES object-src',
      ]),
    );
    expect(findings.every((f) => f.checker === 'csp_evaluator')).toBe(true);
    expect(highestSeverity(findings)).toBe('high');
  });

  it('knows JSONP hosts that bypass an allowlist', () => {
    const findings = evaluatorFindings({
      'script-src': ['https://www.google.com'],
      'object-src': ["'none'"],
    });
    expect(high(findings).map((f) => f.code)).toContain('SCRIPT_ALLOWLIST_BYPASS');
  });

  it('a syntax error ranks high: the browser drops what it cannot parse', () => {
    const findings = evaluatorFindings("default-src 'none'; script-src self; object-src 'none'");
    expect(findings.find((f) => f.code === 'INVALID_KEYWORD')?.severity).toBe('high');
  });

  it('strict generated policies have no high finding', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const artifact = syntheticArtifact({ seed, observations: 600, origins: 25 });
      const { rules } = generatePolicy(artifact, { mode: 'strict', nonce: 'abcdefghijklmnop1234' });
      expect(high(evaluatorFindings(rules)), `seed ${seed}`).toEqual([]);
    }
  });

  it('a generated allowlist policy on ordinary hosts has no high finding either, only allowlist advice', () => {
    const { rules } = generatePolicy(syntheticArtifact({ seed: 9, observations: 600 }));
    const findings = evaluatorFindings(rules);
    expect(high(findings)).toEqual([]);
    expect(findings.map((f) => f.code)).toContain('STRICT_DYNAMIC');
  });

  it('flags eval in a generated policy the way the generator does', () => {
    const artifact: CrawlArtifact = {
      origin: 'https://site.example',
      pages: [
        {
          url: 'https://site.example/',
          finalUrl: 'https://site.example/',
          status: 200,
          observations: [{ type: 'eval', page: 'https://site.example/' }],
        },
      ],
      errors: [],
    };
    const { rules } = generatePolicy(artifact);
    expect(evaluatorFindings(rules).find((f) => f.code === 'SCRIPT_UNSAFE_EVAL')?.severity).toBe('low');
  });

  it('reports each note once, sorted most severe first', () => {
    const findings = evaluatorFindings(
      "script-src 'nonce-abcdefghijkl' 'strict-dynamic' 'unsafe-inline' https:; object-src 'none'; base-uri 'none'",
    );
    const ignored = findings.filter((f) => f.code === 'IGNORED');
    expect(ignored.map((f) => f.value).sort()).toEqual(["'unsafe-inline'", 'https:']);
    expect([...findings].sort(compareFindings)).toEqual(findings);
  });

  it("'default' checks leave out strict-CSP advice", () => {
    const codes = evaluatorFindings("script-src https://a.example; object-src 'none'", {
      checks: 'default',
    }).map((f) => f.code);
    expect(codes).not.toContain('STRICT_DYNAMIC');
  });
});

describe('severity', () => {
  it('maps every csp_evaluator severity onto our ordered scale', () => {
    expect(mapEvaluatorSeverity(EvaluatorSeverity.HIGH)).toBe('high');
    expect(mapEvaluatorSeverity(EvaluatorSeverity.SYNTAX)).toBe('high');
    expect(mapEvaluatorSeverity(EvaluatorSeverity.MEDIUM)).toBe('medium');
    expect(mapEvaluatorSeverity(EvaluatorSeverity.HIGH_MAYBE)).toBe('medium');
    expect(mapEvaluatorSeverity(EvaluatorSeverity.STRICT_CSP)).toBe('low');
    expect(mapEvaluatorSeverity(EvaluatorSeverity.MEDIUM_MAYBE)).toBe('low');
    expect(mapEvaluatorSeverity(EvaluatorSeverity.INFO)).toBe('info');
    expect(mapEvaluatorSeverity(EvaluatorSeverity.NONE)).toBe('info');
  });

  it('ranks high > medium > low > info, whatever the evaluator numbers say', () => {
    expect(SEVERITIES.map(severityRank)).toEqual([0, 1, 2, 3]);
    // In csp_evaluator INFO (60) sorts after MEDIUM_MAYBE (50) and HIGH_MAYBE (40) after MEDIUM (30).
    const mapped = [EvaluatorSeverity.INFO, EvaluatorSeverity.HIGH_MAYBE, EvaluatorSeverity.MEDIUM].map(
      mapEvaluatorSeverity,
    );
    expect(mapped.map(severityRank).sort()).toEqual([1, 1, 3]);
    expect(highestSeverity([])).toBeUndefined();
  });
});
