import { describe, expect, it } from 'vitest';
import { queuePosition } from './queue-position';

describe('queuePosition', () => {
  const waiting = ['01C', '01A', '01B'];
  it('counts the older waiting analyses ahead of it, from 1', () => {
    expect(queuePosition({ id: '01A', status: 'pending' }, waiting)).toBe(1);
    expect(queuePosition({ id: '01C', status: 'pending' }, waiting)).toBe(3);
  });
  it('places a pending analysis missing from the list (an entry expired) by its age', () => {
    expect(queuePosition({ id: '01B5', status: 'pending' }, waiting)).toBe(3);
  });
  it('is null once the analysis crawls or ended', () => {
    for (const status of ['running', 'completed', 'failed']) {
      expect(queuePosition({ id: '01A', status }, waiting)).toBeNull();
    }
  });
});
