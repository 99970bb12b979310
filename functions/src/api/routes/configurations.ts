// Saved CSP configurations (spec sections 3 and 7): list a domain's, create, replace, delete, and export
// the policy a configuration sends as server configuration, so a deploy pipeline can fetch it. Only the
// owner changes one, the members of the owner's team read them; for anyone else they do not exist (404).
import { auditComposed } from '@csp/shared/configurations/audit-composed';
import { composePolicy, exportComposed, type SiteFacts } from '@csp/shared/configurations/compose';
import { scriptsWithoutIntegrity, siteFacts } from '@csp/shared/configurations/site-facts';
import type { ExportFormat } from '@csp/shared/csp/serialize';
import type { Analysis } from '@csp/shared/schemas/analysis';
import {
  CONFIGURATION_LIMITS,
  type Configuration,
  type ConfigurationBody,
  type ConfigurationList,
  configurationBodySchema,
  configurationCreateSchema,
  configurationExportQuerySchema,
} from '@csp/shared/schemas/configuration';
import type { Domain } from '@csp/shared/schemas/domain';
import { type Context, Hono } from 'hono';
import * as z from 'zod';
import { AppError, notFound } from '../../errors';
import { domainReportEndpoint } from '../../http/public-origin';
import { getAnalysis } from '../../store/analyses';
import {
  countDomainConfigurations,
  createConfiguration,
  deleteConfiguration,
  getConfiguration,
  listDomainConfigurations,
  updateConfiguration,
} from '../../store/configurations';
import { loadInventory } from '../../store/script-inventory';
import { domainFor, type Need, type SeenDomain } from '../access';
import type { ApiEnv } from '../deps';
import { currentUser, requireUser } from '../middleware/session';
import { jsonBody, query } from '../validate';

const EXPORT_FORMATS: Record<'apache' | 'nginx' | 'iis' | 'header', ExportFormat> = {
  apache: 'apache',
  nginx: 'nginx',
  iis: 'iis',
  header: 'plain',
};
const EXPORT_TYPES: Record<ExportFormat, string> = {
  apache: 'text/plain; charset=utf-8',
  nginx: 'text/plain; charset=utf-8',
  iis: 'application/xml; charset=utf-8',
  meta: 'text/plain; charset=utf-8',
  plain: 'text/plain; charset=utf-8',
};

/** PUT takes the same body as POST; a domainId in it must be the configuration's own. */
const parseDomainId = z.object({ domainId: z.string().max(64).optional() });

function endpointOf(c: Context<ApiEnv>, domain: Domain): string {
  return domainReportEndpoint(c.req.url, c.var.deps.config, domain.uuid);
}

/** The domain's external scripts without integrity (null: no inventory yet), see site-facts.ts. */
async function domainScriptsWithoutIntegrity(c: Context<ApiEnv>, domain: Domain): Promise<number | null> {
  const inventory = await loadInventory(c.var.deps.db, domain.id);
  return scriptsWithoutIntegrity(inventory.meta ? inventory.entries : null);
}

/**
 * What the audit of the integrity options knows about the site: the inventory is read only when
 * Integrity-Policy is on (nothing else reads the count), the dry run comes with the base analysis.
 */
async function siteFactsFor(
  c: Context<ApiEnv>,
  domain: Domain,
  body: ConfigurationBody,
  base: Analysis,
): Promise<SiteFacts> {
  const count =
    body.metadata.integrityPolicy === 'off' ? null : await domainScriptsWithoutIntegrity(c, domain);
  return siteFacts(count, base.trustedTypes);
}

/** Spec: a base analysis must be selected, and only a completed analysis of this domain can be one. */
async function checkBaseAnalysis(
  c: Context<ApiEnv>,
  domain: Domain,
  body: ConfigurationBody,
): Promise<Analysis> {
  if (!body.baseAnalysisId) throw new AppError(400, 'Please select a base analysis');
  const analysis = await getAnalysis(c.var.deps.db, body.baseAnalysisId);
  if (!analysis || analysis.userId !== domain.userId || analysis.domainId !== domain.id) {
    throw new AppError(400, 'The base analysis must be an analysis of this domain');
  }
  if (analysis.status !== 'completed') {
    throw new AppError(400, 'Only a completed analysis can be the base of a configuration');
  }
  return analysis;
}

/** The configuration of the path and its domain, if the user may do what they ask with it. */
async function configurationFor(
  c: Context<ApiEnv>,
  need: Need,
): Promise<{ configuration: Configuration; domain: SeenDomain }> {
  const configuration = await getConfiguration(c.var.deps.db, c.req.param('id') ?? '');
  if (!configuration) throw notFound('Configuration');
  const domain = await domainFor(c, configuration.domainId, need, { what: 'Configuration' });
  return { configuration, domain };
}

/** /api/domains/:id/csp-configurations: a domain's configurations. The session check is per route. */
export const domainConfigurationRoutes = new Hono<ApiEnv>().get(
  '/:id/csp-configurations',
  requireUser,
  async (c) => {
    const { db } = c.var.deps;
    const domain = await domainFor(c, c.req.param('id'), 'read');
    const [configurations, withoutIntegrity] = await Promise.all([
      listDomainConfigurations(db, domain.id),
      domainScriptsWithoutIntegrity(c, domain),
    ]);
    const list: ConfigurationList = {
      configurations,
      reportEndpoint: endpointOf(c, domain),
      scriptsWithoutIntegrity: withoutIntegrity,
    };
    return c.json(list);
  },
);

/** /api/csp-configurations: create, replace, delete and export one. The session check is per route. */
export const configurationRoutes = new Hono<ApiEnv>()
  .post('/', requireUser, jsonBody(configurationCreateSchema), async (c) => {
    const { db } = c.var.deps;
    const user = currentUser(c);
    const input = c.req.valid('json');
    const domain = await domainFor(c, input.domainId, 'change');
    const { domainId: _ignored, ...body } = input;
    const base = await checkBaseAnalysis(c, domain, body);
    if ((await countDomainConfigurations(db, domain.id)) >= CONFIGURATION_LIMITS.perDomain) {
      throw new AppError(
        409,
        `A domain can have ${CONFIGURATION_LIMITS.perDomain} configurations at most: delete one first`,
      );
    }
    const audit = auditComposed(
      composePolicy(body, endpointOf(c, domain)),
      await siteFactsFor(c, domain, body, base),
    );
    const configuration = await createConfiguration(db, {
      userId: user.id,
      domainId: domain.id,
      body,
      audit,
    });
    return c.json(configuration, 201);
  })

  .put('/:id', requireUser, jsonBody(configurationBodySchema.and(parseDomainId)), async (c) => {
    const { db } = c.var.deps;
    const { configuration: existing, domain } = await configurationFor(c, 'change');
    const { domainId, ...body } = c.req.valid('json');
    if (domainId && domainId !== existing.domainId) {
      throw new AppError(400, 'A configuration cannot move to another domain');
    }
    const base = await checkBaseAnalysis(c, domain, body);
    const audit = auditComposed(
      composePolicy(body, endpointOf(c, domain)),
      await siteFactsFor(c, domain, body, base),
    );
    const updated = await updateConfiguration(db, existing.id, body, audit);
    if (!updated) throw notFound('Configuration');
    return c.json(updated);
  })

  .delete('/:id', requireUser, async (c) => {
    const { configuration: existing } = await configurationFor(c, 'change');
    await deleteConfiguration(c.var.deps.db, existing.id);
    return c.json({ success: true });
  })

  .get('/:id/export', requireUser, query(configurationExportQuerySchema), async (c) => {
    const { configuration, domain } = await configurationFor(c, 'read');
    const { format } = c.req.valid('query');
    const composed = composePolicy(configuration, endpointOf(c, domain));
    const target = EXPORT_FORMATS[format];
    const exported = exportComposed(target, composed);
    return c.body(exported.content, 200, {
      'Content-Type': EXPORT_TYPES[target],
      'Content-Disposition': `attachment; filename="${exported.filename}"`,
    });
  });
