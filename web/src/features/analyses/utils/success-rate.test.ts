import { describe, expect, it } from 'vitest';
import { successRate } from './success-rate';

const of = (...statuses: ('pending' | 'running' | 'completed' | 'failed')[]) =>
  successRate(statuses.map((status) => ({ status })));

describe('success rate', () => {
  it('is N/A until an analysis has finished', () => {
    expect(of()).toBe('N/A');
    expect(of('running')).toBe('N/A');
    expect(of('pending', 'running')).toBe('N/A');
  });

  it('counts only finished analyses: one waiting or running is no failure', () => {
    expect(of('running', 'completed')).toBe('100%');
    expect(of('pending', 'completed', 'completed', 'completed')).toBe('100%');
    expect(of('running', 'completed', 'failed')).toBe('50%');
    expect(of('failed', 'running')).toBe('0%');
    expect(of('completed', 'completed', 'failed')).toBe('67%');
  });
});
