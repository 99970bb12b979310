// /api/domains/:id/scripts: a domain's script inventory (PCI DSS 6.4.3). The owner and the members of the
// owner's team read it; only the owner authorizes scripts and manages rules (members get 403, anyone else
// 404, see api/access.ts). Bodies are validated before the domain is looked at, so bad input changes nothing.
import {
  authorizeScriptsSchema,
  createScriptRuleSchema,
  SCRIPT_INVENTORY_LIMITS,
  type ScriptList,
  scriptListQuerySchema,
} from '@csp/shared/schemas/script-inventory';
import { selectScripts } from '@csp/shared/watch/inventory-list';
import { type Context, Hono } from 'hono';
import { AppError, notFound } from '../../errors';
import { getScriptEntry, listScriptHistory, loadInventory } from '../../store/script-inventory';
import { addScriptRule, authorizeScripts, removeScriptRule } from '../../watch/inventory-review';
import { domainFor } from '../access';
import type { ApiEnv } from '../deps';
import { currentUser, requireUser } from '../middleware/session';
import { jsonBody, query } from '../validate';

const reviewer = (c: Context<ApiEnv>) => {
  const user = currentUser(c);
  return { userId: user.id, username: user.username };
};

export const domainScriptRoutes = new Hono<ApiEnv>()
  .get('/:id/scripts', requireUser, query(scriptListQuerySchema), async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'read');
    const { entries, rules, meta } = await loadInventory(c.var.deps.db, domain.id);
    const lastRunAt = meta?.lastRunAt ?? null;
    const list: ScriptList = {
      ...selectScripts(
        entries.map(({ rev: _rev, ...e }) => e),
        lastRunAt,
        c.req.valid('query'),
      ),
      lastRunAt,
      rules,
    };
    return c.json(list);
  })

  .post('/:id/scripts/authorize', requireUser, jsonBody(authorizeScriptsSchema), async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'change');
    const result = await authorizeScripts(c.var.deps.db, domain.id, c.req.valid('json'), reviewer(c));
    if ('refused' in result) {
      const n = result.refused.length;
      throw new AppError(
        400,
        `${n} of the scripts named ${n === 1 ? 'is' : 'are'} not in the inventory or removed; nothing was authorized`,
        { refused: result.refused.slice(0, 20) },
      );
    }
    return c.json(result);
  })

  .post('/:id/scripts/rules', requireUser, jsonBody(createScriptRuleSchema), async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'change');
    const result = await addScriptRule(c.var.deps.db, domain.id, c.req.valid('json'), reviewer(c));
    if (!result) {
      throw new AppError(
        409,
        `A domain can have ${SCRIPT_INVENTORY_LIMITS.rulesPerDomain} rules at most: delete one first`,
      );
    }
    return c.json(result, 201);
  })

  .delete('/:id/scripts/rules/:ruleId', requireUser, async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'change');
    const removed = await removeScriptRule(c.var.deps.db, domain.id, c.req.param('ruleId'), reviewer(c));
    if (!removed) throw notFound('Rule');
    return c.json({ success: true });
  })

  .get('/:id/scripts/:key/history', requireUser, async (c) => {
    const { db } = c.var.deps;
    const domain = await domainFor(c, c.req.param('id'), 'read');
    const key = c.req.param('key');
    if (!(await getScriptEntry(db, domain.id, key))) throw notFound('Script');
    return c.json({
      history: await listScriptHistory(db, domain.id, key, SCRIPT_INVENTORY_LIMITS.historyRows),
    });
  });
