// The one place routes ask whether the signed-in user may see or change a domain (and through it its
// analyses, configurations and reports). The rule itself is shared/src/teams/access.ts: owners change,
// members of the owner's team read, anyone else gets a 404 so ids do not leak.
import { type Domain, type DomainAccess, READ_ONLY_MESSAGE } from '@csp/shared/schemas/domain';
import { canChange, domainAccess } from '@csp/shared/teams/access';
import type { Context } from 'hono';
import { AppError, notFound } from '../errors';
import { getDomain } from '../store/domains';
import { getTeam } from '../store/teams';
import type { ApiEnv } from './deps';
import { currentUser } from './middleware/session';

export type Need = 'read' | 'change';
export type SeenDomain = Domain & { access: DomainAccess };

/** The owner of the signed-in user's team (the user themselves when they own it), or null. Once per request. */
export async function teamOwnerOf(c: Context<ApiEnv>): Promise<string | null> {
  const user = currentUser(c);
  if (!user.teamId) return null;
  const team = await getTeam(c.var.deps.db, user.teamId);
  return team?.ownerId ?? null;
}

/** The access a loaded domain gives the signed-in user. */
export async function accessTo(c: Context<ApiEnv>, domainUserId: string): Promise<DomainAccess | null> {
  const user = currentUser(c);
  if (domainUserId === user.id) return 'owner';
  return domainAccess(domainUserId, user.id, await teamOwnerOf(c));
}

/**
 * The domain if the user may do what they ask: unknown or unseen → 404 (`what` names it, e.g. 'Report'),
 * seen read-only but asked to change → 403 with the rule in words.
 * `admins` lets administrators through as if owners (the report routes, for moderation).
 */
export async function domainFor(
  c: Context<ApiEnv>,
  id: string,
  need: Need,
  opts: { what?: string; admins?: boolean } = {},
): Promise<SeenDomain> {
  const domain = await getDomain(c.var.deps.db, id);
  const what = opts.what ?? 'Domain';
  if (!domain) throw notFound(what);
  const access = await accessTo(c, domain.userId);
  if (!access) {
    if (opts.admins && currentUser(c).role === 'admin') return { ...domain, access: 'owner' };
    throw notFound(what);
  }
  if (need === 'change' && !canChange(access)) throw new AppError(403, READ_ONLY_MESSAGE);
  return { ...domain, access };
}
