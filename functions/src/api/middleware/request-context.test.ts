import { describe, expect, it } from 'vitest';
import { loggablePath } from './request-context';

describe('request log lines', () => {
  it('never carry an invitation token', () => {
    const token = 'Q3m9x_ZJ-4kq8Vd2aP0bL7sT1uW5yN6cH8eF2gR4tYo';
    expect(loggablePath(`/api/invitations/${token}`)).toBe('/api/invitations/:token');
    expect(loggablePath(`/api/invitations/${token}/accept`)).toBe('/api/invitations/:token/accept');
    expect(loggablePath('/api/domains/abc')).toBe('/api/domains/abc');
  });
});
