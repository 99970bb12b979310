// GET /api/domains/:id/scripts/field-hashes: what visitors' browsers reported about the domain's scripts
// (csp-hash digests, integrity violations), each digest judged against the SHA-256 the crawls computed for the script.
// Read like the script inventory: the owner and the owner's team; anyone else gets 404.
import { crawlDigestsOf, type FieldDigestList, fieldDigestList } from '@csp/shared/watch/field-digests';
import { Hono } from 'hono';
import { loadFieldHashes } from '../../store/field-hashes';
import { loadInventory } from '../../store/script-inventory';
import { domainFor } from '../access';
import type { ApiEnv } from '../deps';
import { requireUser } from '../middleware/session';

export const domainFieldHashRoutes = new Hono<ApiEnv>().get(
  '/:id/scripts/field-hashes',
  requireUser,
  async (c) => {
    const { db } = c.var.deps;
    const domain = await domainFor(c, c.req.param('id'), 'read');
    const [field, inventory] = await Promise.all([
      loadFieldHashes(db, domain.id),
      loadInventory(db, domain.id),
    ]);
    const entries = new Map(inventory.entries.map((e) => [e.key, e]));
    const list: FieldDigestList = fieldDigestList(field, (key) => crawlDigestsOf(entries.get(key)));
    return c.json(list);
  },
);
