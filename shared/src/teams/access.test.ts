import { describe, expect, it } from 'vitest';
import { canChange, domainAccess } from './access';

describe('domainAccess', () => {
  it('gives the owner their domain, whatever their team', () => {
    expect(domainAccess('u1', 'u1', null)).toBe('owner');
    expect(domainAccess('u1', 'u1', 'u9')).toBe('owner');
  });

  it("lets a member see the team owner's domains, read-only", () => {
    expect(domainAccess('owner', 'member', 'owner')).toBe('team');
    expect(canChange(domainAccess('owner', 'member', 'owner'))).toBe(false);
  });

  it("does not share a member's own domains, nor anyone else's", () => {
    expect(domainAccess('member', 'owner', 'owner')).toBeNull();
    expect(domainAccess('member2', 'member', 'owner')).toBeNull();
    expect(domainAccess('stranger', 'member', null)).toBeNull();
  });
});
