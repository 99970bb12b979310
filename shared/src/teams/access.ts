// Who may see and change a domain (and so its analyses, configurations and reports). The README states it:
// a domain's owner changes it; the members of the owner's team see it read-only; for anyone else it does
// not exist. A member's own domains stay theirs alone.
import type { DomainAccess } from '../schemas/domain';

/**
 * @param teamOwnerId the owner of the viewer's team, or null when the viewer is in no team.
 * @returns how the viewer sees the domain, or null when not at all.
 */
export function domainAccess(
  domainUserId: string,
  viewerId: string,
  teamOwnerId: string | null,
): DomainAccess | null {
  if (domainUserId === viewerId) return 'owner';
  if (teamOwnerId !== null && teamOwnerId === domainUserId) return 'team';
  return null;
}

/** Only the owner changes a domain and what belongs to it. */
export const canChange = (access: DomainAccess | null): access is 'owner' => access === 'owner';
