// Saved CSP configurations (spec sections 3 and 7): list a domain's, create, replace, delete, and export
// the policy a configuration sends as server configuration, so a deploy pipeline can fetch it. Only the
// owner may see or change one; for anyone else it does not exist (404).
import { auditComposed, composePolicy, exportOptionsOf } from '@csp/shared/configurations/compose';
import { type ExportFormat, exportPolicy } from '@csp/shared/csp/serialize';
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
import { z } from 'zod';
import { AppError, notFound } from '../../errors';
import { domainReportEndpoint } from '../../http/public-origin';
import { getAnalysis } from '../../store/analyses';
import {
  countDomainConfigurations,
  createConfiguration,
  deleteConfiguration,
  getOwnedConfiguration,
  listDomainConfigurations,
  updateConfiguration,
} from '../../store/configurations';
import { getDomain, getOwnedDomain } from '../../store/domains';
import { parseWith, readBody } from '../body';
import type { ApiEnv } from '../deps';
import { currentUser, requireUser } from '../middleware/session';

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

/** Spec: a base analysis must be selected, and only a completed analysis of this domain can be one. */
async function checkBaseAnalysis(c: Context<ApiEnv>, domain: Domain, body: ConfigurationBody) {
  if (!body.baseAnalysisId) throw new AppError(400, 'Please select a base analysis');
  const analysis = await getAnalysis(c.var.deps.db, body.baseAnalysisId);
  if (!analysis || analysis.userId !== domain.userId || analysis.domainId !== domain.id) {
    throw new AppError(400, 'The base analysis must be an analysis of this domain');
  }
  if (analysis.status !== 'completed') {
    throw new AppError(400, 'Only a completed analysis can be the base of a configuration');
  }
}

async function ownedConfiguration(c: Context<ApiEnv>): Promise<Configuration> {
  const configuration = await getOwnedConfiguration(
    c.var.deps.db,
    currentUser(c).id,
    c.req.param('id') ?? '',
  );
  if (!configuration) throw notFound('Configuration');
  return configuration;
}

/** The configuration's domain: it exists as long as the configuration does (deleted with it). */
async function domainOf(c: Context<ApiEnv>, configuration: Configuration): Promise<Domain> {
  const domain = await getDomain(c.var.deps.db, configuration.domainId);
  if (!domain) throw notFound('Configuration');
  return domain;
}

export const configurationRoutes = new Hono<ApiEnv>()
  .get('/domains/:id/csp-configurations', requireUser, async (c) => {
    const { db } = c.var.deps;
    const domain = await getOwnedDomain(db, currentUser(c).id, c.req.param('id'));
    if (!domain) throw notFound('Domain');
    const list: ConfigurationList = {
      configurations: await listDomainConfigurations(db, domain.id),
      reportEndpoint: endpointOf(c, domain),
    };
    return c.json(list);
  })

  .post('/csp-configurations', requireUser, async (c) => {
    const { db } = c.var.deps;
    const user = currentUser(c);
    const input = await readBody(c, configurationCreateSchema);
    const domain = await getOwnedDomain(db, user.id, input.domainId);
    if (!domain) throw notFound('Domain');
    const { domainId: _ignored, ...body } = input;
    await checkBaseAnalysis(c, domain, body);
    if ((await countDomainConfigurations(db, domain.id)) >= CONFIGURATION_LIMITS.perDomain) {
      throw new AppError(
        409,
        `A domain can have ${CONFIGURATION_LIMITS.perDomain} configurations at most: delete one first`,
      );
    }
    const audit = auditComposed(composePolicy(body, endpointOf(c, domain)));
    const configuration = await createConfiguration(db, {
      userId: user.id,
      domainId: domain.id,
      body,
      audit,
    });
    return c.json(configuration, 201);
  })

  .put('/csp-configurations/:id', requireUser, async (c) => {
    const { db } = c.var.deps;
    const existing = await ownedConfiguration(c);
    const raw = await readBody(c, configurationBodySchema.and(parseDomainId));
    const { domainId, ...body } = raw;
    if (domainId && domainId !== existing.domainId) {
      throw new AppError(400, 'A configuration cannot move to another domain');
    }
    const domain = await domainOf(c, existing);
    await checkBaseAnalysis(c, domain, body);
    const audit = auditComposed(composePolicy(body, endpointOf(c, domain)));
    const updated = await updateConfiguration(db, existing.id, body, audit);
    if (!updated) throw notFound('Configuration');
    return c.json(updated);
  })

  .delete('/csp-configurations/:id', requireUser, async (c) => {
    const existing = await ownedConfiguration(c);
    await deleteConfiguration(c.var.deps.db, existing.id);
    return c.json({ success: true });
  })

  .get('/csp-configurations/:id/export', requireUser, async (c) => {
    const configuration = await ownedConfiguration(c);
    const { format } = parseWith(configurationExportQuerySchema, c.req.query());
    const domain = await domainOf(c, configuration);
    const composed = composePolicy(configuration, endpointOf(c, domain));
    const target = EXPORT_FORMATS[format];
    const exported = exportPolicy(target, composed.rules, exportOptionsOf(composed));
    return c.body(exported.content, 200, {
      'Content-Type': EXPORT_TYPES[target],
      'Content-Disposition': `attachment; filename="${exported.filename}"`,
    });
  });
