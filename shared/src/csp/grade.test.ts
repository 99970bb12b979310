import { describe, expect, it } from 'vitest';
import type { PolicyFinding, Severity } from './finding';
import { gradeOfScore, isIssue, meanGrade, scoreOf } from './grade';

const finding = (severity: Severity, checker: PolicyFinding['checker'] = 'audit'): PolicyFinding => ({
  severity,
  directive: 'script-src',
  code: 'x',
  description: 'x',
  checker,
});

describe('grade', () => {
  it('A+ only without findings above info; one high finding caps at C, two make F', () => {
    expect(gradeOfScore(scoreOf([finding('info')]))).toBe('A+');
    expect(gradeOfScore(scoreOf([finding('low')]))).toBe('A');
    expect(gradeOfScore(scoreOf([finding('medium')]))).toBe('B');
    expect(gradeOfScore(scoreOf([finding('high')]))).toBe('C');
    expect(gradeOfScore(scoreOf([finding('high'), { ...finding('high'), code: 'y' }]))).toBe('F');
    const highs = ['a', 'b', 'c', 'd'].map((code) => ({ ...finding('high'), code }));
    expect(scoreOf(highs)).toBe(0);
  });

  it('one kind of problem in one directive costs once; low ones together stay in the A band', () => {
    const hosts = ['https://a.example', 'https://b.example'].map((value) => ({
      ...finding('medium'),
      value,
    }));
    expect(scoreOf(hosts)).toBe(88);
    const lows = ['a', 'b', 'c', 'd', 'e'].map((code) => ({ ...finding('low'), code }));
    expect(gradeOfScore(scoreOf(lows))).toBe('A');
  });

  it("the generator's findings are shown but neither scored nor issues", () => {
    expect(scoreOf([finding('high', 'generator')])).toBe(100);
    expect(isIssue(finding('high', 'generator'))).toBe(false);
    expect(isIssue(finding('medium', 'csp_evaluator'))).toBe(true);
    expect(isIssue(finding('low'))).toBe(false);
  });

  it('the mean of several policies, or nothing', () => {
    expect(meanGrade([])).toBeNull();
    expect(meanGrade([100, 70])).toEqual({ score: 85, grade: 'B' });
  });
});
